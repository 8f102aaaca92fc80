// "Did you mean ...?": the closest known spelling to a misspelt name.
#pragma once

#include <string>
#include <vector>

namespace tle {

size_t editDistance(const std::string &a, const std::string &b);

// The candidate nearest to `name` within `maxDistance` edits (exclusive), or "".
std::string closestSpelling(const std::string &name, const std::vector<std::string> &candidates, size_t maxDistance = 3);

}  // namespace tle
