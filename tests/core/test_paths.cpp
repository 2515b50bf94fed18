#include "test_paths.hpp"

#include <stdexcept>

namespace achain::test {

std::string sourceDir() { return ACHAIN_SOURCE_DIR; }
std::string sharedDir() { return ACHAIN_SHARED_DIR; }
std::string cliPath() {
#ifdef ACHAIN_CLI_PATH
  return ACHAIN_CLI_PATH;
#else
  throw std::runtime_error("this build has no achain CLI (configure with -DACHAIN_BUILD_CLI=ON)");
#endif
}

}  // namespace achain::test
