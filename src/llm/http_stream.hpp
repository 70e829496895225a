#pragma once
// One streamed HTTP POST (cpp-httplib; https through OpenSSL): a 2xx answer's body is handed to
// the caller as it arrives, any other's is collected. The call ends at its deadline, when the
// caller's callback says stop, or when `cancel` becomes true.
#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kforge::llm {

struct HttpResult {
  int status = 0;                              // 0: no answer (see transport_error)
  std::string transport_error;                 // connection refused, reset, ...; "" when answered
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;                            // a non-2xx answer's body
  bool timed_out = false;                      // the deadline passed (no answer, or mid-stream)
  bool cancelled = false;                      // `cancel` or the callback stopped it
};

// `endpoint` is a base URL with an optional path ("http://127.0.0.1:8000/v1"); `path` goes after it.
HttpResult post_stream(const std::string& endpoint, const std::string& path,
                       const std::vector<std::pair<std::string, std::string>>& headers, const std::string& body,
                       double timeout_s, const std::function<bool(std::string_view)>& on_body,
                       const std::atomic<bool>* cancel);

}  // namespace kforge::llm
