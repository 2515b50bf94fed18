// MJCF text → mjModel for the MuJoCo peer tests (mj_loadXML reads files only: the text goes through a
// temporary file). A load error fails the test with MuJoCo's message and the text.
#pragma once
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>

inline mjModel* loadMjcf(const std::string& xml) {
  char path[] = "/tmp/achain_mjcf_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string file = std::string(path) + ".xml";
  std::rename(path, file.c_str());
  { std::ofstream(file) << xml; }
  char err[1000] = "";
  mjModel* mm = mj_loadXML(file.c_str(), nullptr, err, sizeof err);
  std::remove(file.c_str());
  INFO(err << "\n" << xml);
  REQUIRE(mm != nullptr);
  return mm;
}
