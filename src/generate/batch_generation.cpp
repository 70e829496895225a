#include "generate/batch_generation.hpp"

#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/sha256.hpp"
#include "generate/code_extraction.hpp"
#include "llm/provider.hpp"
#include "suite/candidate.hpp"

namespace kforge::generate {
namespace {

std::string extension_of(const std::string& format) {
  if (format == "cuda") return ".cu";
  if (format == "cpp") return ".cpp";
  return ".py";
}

std::string file_safe(std::string name) {
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return name;
}

struct Task {
  const Problem* problem;
  int sample;
  const Prompt* prompt;  // one per problem: samples share it
};

// A prompt as stored with its call (model_calls.prompt), and the hash a resumed batch matches.
std::string prompt_json(const Prompt& prompt) {
  return nlohmann::json{{"system", prompt.system}, {"user", prompt.user}}.dump();
}

// What besides the prompt shapes a model's answer: a change makes every sample a new one.
std::string settings_json(const llm::ModelConfig& model) {
  nlohmann::json j = {{"api", model.api}, {"model", model.model}, {"max_tokens", model.max_tokens}};
  if (model.temperature) j["temperature"] = *model.temperature;
  if (!model.reasoning_effort.empty()) j["reasoning_effort"] = model.reasoning_effort;
  return j.dump();
}

// Whether `path` holds exactly the candidate of hash `hash`.
bool holds(const std::filesystem::path& path, const std::string& hash) {
  try {
    return std::filesystem::is_regular_file(path) && load_candidate_file(path).hash == hash;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

std::filesystem::path candidate_path(const std::filesystem::path& out_dir, const Problem& problem,
                                     const std::string& model, const std::string& format, int sample) {
  if (format == "kernelbench" || format == "triton")  // upstream's generation names: its tools read the folder too
    return out_dir / fmt::format("level_{}_problem_{}_sample_{}_kernel.py", problem.level, problem.id, sample);
  return out_dir / ("level" + std::to_string(problem.level)) / problem.file_name().substr(0, problem.file_name().size() - 3) /
         (file_safe(model) + "_sample" + std::to_string(sample) + extension_of(format));
}

GenerateSummary generate_candidates(const std::vector<Problem>& problems, const GenerateOptions& o, Store& store,
                                    const std::atomic<bool>& cancel,
                                    const std::function<void(const std::string&)>& on_line) {
  GenerateSummary summary;
  std::mutex mutex;  // the store, the summary and on_line
  std::vector<Task> tasks;
  // Every prompt is built before the first call: a template with an unknown slot stops the command
  // here, with its message, before anything is asked or written.
  std::map<const Problem*, Prompt> prompts;
  const std::string settings = settings_json(o.model);
  for (const auto& p : problems) {
    store.put_problem(p);
    const Prompt* prompt = &prompts.emplace(&p, build_prompt(p, o.prompt)).first->second;
    const std::string prompt_hash = sha256_hex(prompt_json(*prompt));
    for (int s = 0; s < o.samples; ++s) {
      ++summary.planned;
      // Resumed by what the output folder holds and what the store paid for: a sample answered
      // under this prompt and these settings is not asked again; its file, missing from this
      // folder (a new --out, a deleted file) or changed, is written again from the store.
      if (!o.dry_run && !o.force)
        if (auto done = store.generated_call(o.model.name, p.hash, o.prompt.format, s, prompt_hash, settings)) {
          ++summary.skipped;
          summary.earlier_input_tokens += done->input_tokens;
          summary.earlier_output_tokens += done->output_tokens;
          summary.earlier_cost_usd += done->cost_usd;
          const auto path = candidate_path(o.out_dir, p, o.model.name, o.prompt.format, s);
          if (holds(path, *done->candidate_hash)) {
            on_line(fmt::format("{} sample {}: already generated ({})", p.display_name(), s, path.string()));
          } else {
            const auto source = store.candidate_source(*done->candidate_hash);
            if (!source) throw Error("the store holds a call for " + p.display_name() + " sample " + std::to_string(s) +
                                     " but not its candidate; generate with --force");
            std::filesystem::create_directories(path.parent_path());
            write_file_atomically(path, *source);
            on_line(fmt::format("{} sample {}: written again from the store, no call ({})", p.display_name(), s,
                                path.string()));
          }
          continue;
        }
      tasks.push_back({&p, s, prompt});
    }
  }
  if (o.dry_run) {
    for (const auto& t : tasks) {
      const size_t characters = t.prompt->system.size() + t.prompt->user.size();
      const int64_t tokens = static_cast<int64_t>(characters / 4);
      summary.input_tokens += tokens;
      summary.estimated_max_usd += llm::cost_usd(o.model, tokens, o.model.max_tokens);
      on_line(fmt::format("{} sample {}: prompt of {} characters (~{} tokens)", t.problem->display_name(), t.sample,
                          characters, tokens));
    }
    return summary;
  }

  // The model's provider: an HTTP API, a replay of a store's recorded calls, or a scripted folder.
  const std::unique_ptr<llm::Provider> provider = llm::make_provider(o.model, o.key);

  std::atomic<size_t> next{0};
  // What a call thread cannot do (write a candidate, store a call) stops the others from starting
  // calls and is rethrown once they have finished theirs.
  std::atomic<bool> failed{false};
  std::atomic<bool> stop{false};  // a call showed that no call can succeed
  std::exception_ptr failure;
  auto call_one = [&](const Task& t) {
    const Prompt& prompt = *t.prompt;
    llm::CallOptions call_options;
    call_options.cancel = &cancel;
    const llm::Completion c = provider->complete({prompt.system, prompt.user},
                                                 {t.problem->hash, o.prompt.format, t.sample, false, t.problem->display_name()}, call_options);

    ModelCall call;
    call.model = o.model.name;
    call.provider_model = o.model.model;
    call.problem_hash = t.problem->hash;
    call.format = o.prompt.format;
    call.sample = t.sample;
    call.prompt_json = prompt_json(prompt);
    call.prompt_hash = sha256_hex(call.prompt_json);
    call.settings_json = settings;
    call.answer = c.text;
    call.input_tokens = c.input_tokens;
    call.output_tokens = c.output_tokens;
    call.cost_usd = c.cost_usd;
    call.latency_s = c.latency_s;
    call.attempts = c.attempts;
    call.http_status = c.http_status;
    std::optional<Candidate> candidate;
    if (c.ok()) {
      const Extraction e = extract_code(c.text, o.prompt.format);
      call.outcome = e.outcome;
      call.message = e.message;
      if (e.code) {
        const auto path = candidate_path(o.out_dir, *t.problem, o.model.name, o.prompt.format, t.sample);
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path) << *e.code;
        candidate = load_candidate_file(path);
        call.candidate_hash = candidate->hash;
        call.candidate_path = path.string();
      }
    } else {
      call.outcome = c.error_kind;
      call.message = c.error;
    }

    std::lock_guard lock(mutex);
    if (candidate) store.put_candidate(*candidate);
    store.insert_model_call(call);
    summary.input_tokens += c.input_tokens;
    summary.output_tokens += c.output_tokens;
    summary.cost_usd += c.cost_usd;
    if (call.outcome == "ok") ++summary.ok;
    else if (call.outcome == "no_code" || call.outcome == "wrong_format") ++summary.no_code;
    else if (call.outcome == "cancelled") ++summary.cancelled;
    else ++summary.failed;
    if (call.outcome != "ok" && call.outcome != "cancelled")
      summary.missing.push_back({t.problem->display_name(), t.problem->level, t.problem->id, t.sample, call.outcome, call.message});
    // A refused key or an unknown model (404) fails every call alike: the batch stops at once
    // rather than paying for, or waiting on, the rest.
    if ((call.outcome == "auth" || (call.outcome == "bad_request" && c.http_status == 404)) && summary.stopped.empty()) {
      summary.stopped = fmt::format("{} ({}): {}", call.outcome, c.http_status, call.message.substr(0, 200));
      stop = true;
    }
    on_line(fmt::format("{} sample {}: {}{} ({} in, {} out, ${:.4f}, {:.1f} s{})", t.problem->display_name(),
                        t.sample, call.outcome, call.message.empty() ? "" : ": " + call.message.substr(0, 120),
                        c.input_tokens, c.output_tokens, c.cost_usd, c.latency_s,
                        c.attempts > 1 ? fmt::format(", {} attempts", c.attempts) : ""));
  };
  auto work = [&] {
    for (size_t i = next++; i < tasks.size() && !cancel && !failed && !stop; i = next++) {
      try {
        call_one(tasks[i]);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        failed = true;
      }
    }
  };
  // The model's own limit, under the global one when given.
  const int limit = o.concurrency > 0 ? std::min(o.concurrency, o.model.concurrency) : o.model.concurrency;
  const int workers = std::max(1, std::min<int>(limit, static_cast<int>(tasks.size())));
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  return summary;
}

}  // namespace kforge::generate
