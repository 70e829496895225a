// Training problems (mode = "train", docs/evaluation.md "Training problems") through the real
// binary on the CPU, beyond the trust corpora's train_* cases: gradients held at their own scale,
// a bf16 step, and the load errors a training step adds (grad_inputs, parameter shapes).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "support/command.hpp"
#include "support/temp_dir.hpp"

namespace kforge::testing {
namespace {

const std::vector<std::string> kQuick{"--device", "cpu", "--timeout", "60", "--max-time", "0.3", "--min-time", "0",
                                      "--min-samples", "5", "--json"};

std::string manual_linear_tanh() {
  return R"(import torch
import torch.nn as nn


class LinearTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        y = torch.tanh(torch.addmm(bias, x, weight.t()))
        ctx.save_for_backward(x, weight, y)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        x, weight, y = ctx.saved_tensors
        grad_pre = grad_y * (1 - y * y)
        return grad_pre @ weight, grad_pre.t() @ x, grad_pre.sum(0)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return LinearTanh.apply(x, self.linear.weight, self.linear.bias)
)";
}

// The cross-entropy problems' identity: autograd's own backward.
const char* const kCrossEntropyIdentity = R"(import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def forward(self, logits, labels):
        return F.cross_entropy(logits, labels)
)";

// `kforge eval --problem` with the quick settings; each candidate's JSON line by file name.
std::map<std::string, nlohmann::json> evaluate_quickly(TempDir& dir, const std::string& problem,
                                                       const std::vector<std::string>& candidates) {
  std::vector<std::string> args{"--db", dir.file("k.db"), "eval"};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.insert(args.end(), {"--problem", problem});
  args.insert(args.end(), candidates.begin(), candidates.end());
  auto r = run_kforge(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.lines_by_candidate();
}

// A mean loss over 4,096 rows: its gradient's elements are all under 2.5e-4 and mostly under
// fp32's atol of 1e-4. A backward that returns zeros from its second call on passes the first
// trial (and with it the fp64 check) and must fail the second on the comparison alone.
TEST(CpuTraining, MeanLossGradientsAreHeldAtTheirOwnScale) {
  TempDir dir;
  const std::string problem = source_path("tests/problems/training/level6/2_Mean_Cross_Entropy_Train.py");
  std::string identity = dir.write("identity.py", kCrossEntropyIdentity);
  std::string zeros = dir.write("zeros_after_first.py", R"(import torch
import torch.nn as nn
import torch.nn.functional as F


class ZeroLater(torch.autograd.Function):
    calls = 0

    @staticmethod
    def forward(ctx, logits, labels):
        ctx.save_for_backward(logits, labels)
        return F.cross_entropy(logits, labels)

    @staticmethod
    def backward(ctx, grad):
        ZeroLater.calls += 1
        logits, labels = ctx.saved_tensors
        if ZeroLater.calls > 1:
            return torch.zeros_like(logits), None
        p = torch.softmax(logits, dim=1)
        p[torch.arange(len(labels)), labels] -= 1
        return grad * p / len(labels), None


class ModelNew(nn.Module):
    def forward(self, logits, labels):
        return ZeroLater.apply(logits, labels)
)");
  auto got = evaluate_quickly(dir, problem, {identity, zeros});
  EXPECT_EQ(got["identity.py"].value("verdict", ""), "correct") << got["identity.py"].dump();
  EXPECT_EQ(got["zeros_after_first.py"].value("verdict", ""), "incorrect") << got["zeros_after_first.py"].dump();
  const std::string message = got["zeros_after_first.py"].value("message", "");
  EXPECT_NE(message.find("trial 2/"), std::string::npos) << message;
  EXPECT_NE(message.find("the gradient of input 0"), std::string::npos) << message;
}

// A gradient of 100,000 classes a row: a backward that writes only the label elements leaves every
// other one within the elementwise tolerance (each about 1e-5 of the largest), and is caught by the
// gradient's norm alone.
TEST(CpuTraining, AGradientWithItsSmallElementsLeftOutFailsOnItsNorm) {
  TempDir dir;
  const std::string problem = source_path("tests/problems/training/level6/3_Wide_Vocab_Cross_Entropy_Train.py");
  std::string identity = dir.write("identity.py", kCrossEntropyIdentity);
  std::string label_only = dir.write("label_only.py", R"(import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelOnly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, labels):
        ctx.save_for_backward(logits, labels)
        return F.cross_entropy(logits, labels)

    @staticmethod
    def backward(ctx, grad):
        logits, labels = ctx.saved_tensors
        rows = torch.arange(len(labels))
        p_label = torch.softmax(logits, dim=1)[rows, labels]
        g = torch.zeros_like(logits)
        g[rows, labels] = (p_label - 1) / len(labels)
        return grad * g, None


class ModelNew(nn.Module):
    def forward(self, logits, labels):
        return LabelOnly.apply(logits, labels)
)");
  auto got = evaluate_quickly(dir, problem, {identity, label_only});
  EXPECT_EQ(got["identity.py"].value("verdict", ""), "correct") << got["identity.py"].dump();
  EXPECT_EQ(got["label_only.py"].value("verdict", ""), "incorrect") << got["label_only.py"].dump();
  const std::string message = got["label_only.py"].value("message", "");
  EXPECT_NE(message.find("the gradient of input 0: every element lies within"), std::string::npos) << message;
  EXPECT_NE(message.find("of the gradient's norm"), std::string::npos) << message;
}

// A bf16 step (gradients at 1e-2 and their bf16 order noise): an identity and a hand-written
// backward that keeps its own rounding points are both correct.
TEST(CpuTraining, Bf16StepsOfTheirOwnAreCorrect) {
  TempDir dir;
  const std::string problem = source_path("tests/problems/training/level6/1_Linear_Tanh_Train.py");
  std::string identity = dir.write("identity.py", R"(import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.tanh(self.linear(x))
)");
  std::string manual = dir.write("manual.py", manual_linear_tanh());
  std::vector<std::string> args{"--db", dir.file("k.db"), "eval", "--precision", "bf16"};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.insert(args.end(), {"--problem", problem, identity, manual});
  auto r = run_kforge(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = r.lines_by_candidate();
  EXPECT_EQ(got["identity.py"].value("verdict", ""), "correct") << got["identity.py"].dump();
  EXPECT_EQ(got["manual.py"].value("verdict", ""), "correct") << got["manual.py"].dump();
}

// What a training step adds to load: a grad_inputs entry that names no floating input is the
// problem's fault (load_error, saying so); a candidate whose trainable parameters differ in shape
// from the reference's cannot have its gradients compared (load_error, naming both).
TEST(CpuTraining, LoadErrorsSayWhatTheStepNeeds) {
  TempDir dir;
  std::string bad_problem = dir.write("level6/1_Bad_Grad_Inputs.py", R"(import torch
import torch.nn as nn

mode = "train"
grad_inputs = [1]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(8))

    def forward(self, x, labels):
        return x * self.scale


def get_inputs():
    return [torch.randn(4, 8), torch.randint(0, 8, (4,))]


def get_init_inputs():
    return []
)");
  std::string model_new = dir.write("scale_new.py", R"(import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(8))

    def forward(self, x, labels):
        return x * self.scale
)");
  std::string other_shapes = dir.write("transposed_weight.py", R"(import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight_t = nn.Parameter(torch.randn(in_features, out_features))
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x):
        return torch.tanh(x @ self.weight_t + self.bias)
)");
  std::vector<std::string> args{"--db", dir.file("k.db"), "eval"};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.insert(args.end(), {"--problem", bad_problem, model_new});
  auto bad = run_kforge(args);
  ASSERT_EQ(bad.exit_code, 0) << bad.err;
  auto bad_lines = bad.json_lines();
  ASSERT_EQ(bad_lines.size(), 1u) << bad.out;
  EXPECT_EQ(bad_lines[0].value("verdict", ""), "load_error") << bad_lines[0].dump();
  EXPECT_NE(bad_lines[0].value("message", "").find("grad_inputs names input 1"), std::string::npos) << bad_lines[0].dump();

  args = {"--db", dir.file("k.db"), "eval"};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  args.insert(args.end(), {"--problem", source_path("tests/problems/training/level6/1_Linear_Tanh_Train.py"), other_shapes});
  auto shapes = run_kforge(args);
  ASSERT_EQ(shapes.exit_code, 0) << shapes.err;
  auto lines = shapes.json_lines();
  ASSERT_EQ(lines.size(), 1u) << shapes.out;
  EXPECT_EQ(lines[0].value("verdict", ""), "load_error") << lines[0].dump();
  const std::string message = lines[0].value("message", "");
  EXPECT_NE(message.find("ModelNew's parameter weight_t has shape [96, 80] where Model's linear.weight has [80, 96]"),
            std::string::npos)
      << message;
}

// The problem tools see a training problem as its step: problems info counts the backward's FLOPs
// (a linear layer's step is three products of the forward's size) and its gradients among the outputs.
TEST(CpuTraining, InfoCountsTheBackward) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "problems", "info", "--json",
                       source_path("tests/problems/training/level6/1_Linear_Tanh_Train.py")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out;
  const int64_t forward = 2LL * 64 * 96 * 80;
  EXPECT_EQ(lines[0].value("flops", int64_t{0}), 3 * forward) << lines[0].dump();
  EXPECT_EQ(lines[0].at("outputs").size(), 4u) << lines[0].dump();  // y, dx, dW, db
}

// A grouped convolution's backward: the input and weight gradients make the forward's
// multiplications once more each (torch 2.11's own formula counts a depthwise weight gradient
// `groups` times over), and all three are the convolutions' share (timed at TF32's rate).
TEST(CpuTraining, InfoCountsADepthwiseConvolutionsBackwardOnce) {
  TempDir dir;
  auto r = run_kforge({"--db", dir.file("k.db"), "problems", "info", "--json", "level6/24_Causal_Conv1d"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = r.json_lines();
  ASSERT_EQ(lines.size(), 1u) << r.out;
  // [16, 5120, 2048] through a depthwise kernel of 4, padded by 3 on both sides: 2051 outputs a channel.
  const int64_t forward = 2LL * 16 * 5120 * 2051 * 4;
  EXPECT_EQ(lines[0].value("flops", int64_t{0}), 3 * forward) << lines[0].dump();
  EXPECT_EQ(lines[0].value("tf32_flops", int64_t{0}), 3 * forward) << lines[0].dump();
}

}  // namespace
}  // namespace kforge::testing
