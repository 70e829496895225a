#include "llm/http_stream.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>

#include <httplib.h>

namespace kforge::llm {
namespace {

// "https://host:port/base" -> ("https://host:port", "/base")
std::pair<std::string, std::string> split_endpoint(const std::string& endpoint) {
  const auto scheme_end = endpoint.find("://");
  const auto path_start = endpoint.find('/', scheme_end == std::string::npos ? 0 : scheme_end + 3);
  if (path_start == std::string::npos) return {endpoint, ""};
  return {endpoint.substr(0, path_start), endpoint.substr(path_start)};
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

HttpResult post_stream(const std::string& endpoint, const std::string& path,
                       const std::vector<std::pair<std::string, std::string>>& headers, const std::string& body,
                       double timeout_s, const std::function<bool(std::string_view)>& on_body,
                       const std::atomic<bool>* cancel) {
  HttpResult result;
  const auto [host, base] = split_endpoint(endpoint);
  httplib::Client client(host);
  if (!client.is_valid()) {
    result.transport_error = "not a usable endpoint: " + endpoint;
    return result;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  const auto read_timeout = std::chrono::duration<double>(std::min(timeout_s, 60.0));
  client.set_connection_timeout(std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::duration<double>(std::min(timeout_s, 10.0))));
  client.set_read_timeout(std::chrono::duration_cast<std::chrono::microseconds>(read_timeout));
  client.set_write_timeout(std::chrono::seconds(30));

  httplib::Request req;
  req.method = "POST";
  req.path = base + path;
  for (const auto& [name, value] : headers) req.headers.emplace(name, value);
  req.headers.emplace("Content-Type", "application/json");
  req.body = body;
  bool ok_status = false;
  req.response_handler = [&](const httplib::Response& response) {
    result.status = response.status;
    for (const auto& [name, value] : response.headers) result.headers[lower(name)] = value;
    ok_status = response.status >= 200 && response.status < 300;
    return true;
  };
  req.content_receiver = [&](const char* data, size_t size, uint64_t, uint64_t) {
    if (cancel && *cancel) {
      result.cancelled = true;
      return false;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      result.timed_out = true;
      return false;
    }
    if (!ok_status) {
      if (result.body.size() < (1u << 20)) result.body.append(data, size);
      return true;
    }
    if (!on_body(std::string_view(data, size))) {
      result.cancelled = true;
      return false;
    }
    return true;
  };
  auto response = client.send(req);
  if (!response && !result.cancelled && !result.timed_out) {
    const auto error = response.error();
    if (error == httplib::Error::Read || error == httplib::Error::ConnectionTimeout) result.timed_out = result.status == 0;
    result.transport_error = httplib::to_string(error);
  }
  return result;
}

}  // namespace kforge::llm
