// Runs the native `achain` CLI for the CLI tests: stdout is read through a pipe, stderr goes to a
// private temporary file. ctest runs test cases in parallel processes, so every path handed out here
// is created by mkstemps (unique to the call) — never a shared name.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include "test_paths.hpp"

namespace achain::test {

struct CliResult {
  int status;
  std::string out, err;
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

/// A fresh, private, empty file /tmp/achain_cli_XXXXXX<suffix>; the caller removes it.
inline std::string tempPath(const std::string& suffix = "") {
  std::string tmpl = "/tmp/achain_cli_XXXXXX" + suffix;
  const int fd = mkstemps(&tmpl[0], static_cast<int>(suffix.size()));
  REQUIRE(fd >= 0);
  close(fd);
  return tmpl;
}

/// `achain ARGS` through the shell (ARGS may hold redirections); exit status, stdout and stderr.
inline CliResult runCli(const std::string& args) {
  const std::string errfile = tempPath(".err");
  FILE* p = popen((achain::test::cliPath() + " " + args + " 2>" + errfile).c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  std::ifstream ef(errfile);
  std::string err((std::istreambuf_iterator<char>(ef)), std::istreambuf_iterator<char>());
  std::remove(errfile.c_str());
  return {WEXITSTATUS(st), out, err};
}

}  // namespace achain::test
