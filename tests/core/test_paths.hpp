// Where the tests find their fixtures and the CLI. The paths are compiled into one small file
// (test_paths.cpp) rather than into every test batch: ccache rewrites absolute paths in the compiler's
// arguments relative to CCACHE_BASEDIR but not inside -D values, so a path macro on every batch made a
// fresh clone in another folder miss the cache for all of them.
#pragma once
#include <string>

namespace achain::test {

/// The source tree's root (the folder holding core/, tests/, …).
std::string sourceDir();
/// The shared science folder beside the checkout (../shared).
std::string sharedDir();
/// The built `achain` CLI; throws when this build has no CLI.
std::string cliPath();

}  // namespace achain::test
