#pragma once
// The shipped search policies (one file each); search_policy.cpp's registry names them.
#include <memory>

#include "agent/search_policy.hpp"

namespace kforge::agent {

std::unique_ptr<SearchPolicy> make_serial_policy(const PolicyOptions& options);
std::unique_ptr<SearchPolicy> make_metr_policy(const PolicyOptions& options);
std::unique_ptr<SearchPolicy> make_beam_policy(const PolicyOptions& options);
std::unique_ptr<SearchPolicy> make_chains_policy(const PolicyOptions& options);

}  // namespace kforge::agent
