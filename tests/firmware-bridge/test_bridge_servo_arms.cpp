// Issue 33: the default calibration files of the built-in servo-bus arms (core/robots/calibration/
// so101.feetech.json, openmanipulator-x.dynamixel.json) read by the bus host's reader (servoCalibrationFromJson):
// the vendors' servo IDs and baud rate, one joint per coordinate of the built-in in its order and names, the limits
// the model's (narrowToModel changes nothing, rangeNotes says nothing), and the servo counts at the limits.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <achain/io/robot.hpp>

#include "host/servo_host.hpp"
#include "test_paths.hpp"

namespace servo_arms_bridge {

using namespace achain;
using namespace achain::bridge;

std::string calibrationText(const std::string& file) {
  const std::string path = test::sourceDir() + "/core/robots/calibration/" + file;
  std::ifstream f(path);
  INFO(path);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct ArmCalibration {
  std::string file, robot;
  ServoProtocol protocol;
  std::vector<int> ids;
  int zero_offset;
  double max_velocity;
  std::vector<std::pair<int, int>> counts_at_limits;  ///< jointToCounts at (min, max), per joint
};

}  // namespace servo_arms_bridge

using namespace achain;
using namespace achain::bridge;

TEST_CASE("servo arms: the default calibrations parse and fit the built-ins", "[servo][servo_arms]") {
  const std::vector<servo_arms_bridge::ArmCalibration> arms = {
      // lerobot's SO follower: IDs 1..5 (gripper 6, not a coordinate), half-turn homing 2047; 2π/4096 per count
      {"so101.feetech.json", "so101", ServoProtocol::Feetech, {1, 2, 3, 4, 5}, 2047, 2.35,
       {{795, 3299}, {909, 3185}, {945, 3149}, {966, 3128}, {258, 3899}}},
      // ROBOTIS's ros2_control xacro: IDs 11..14 (gripper 15, not a coordinate); zero at 2048 (xm430_w350.model)
      {"openmanipulator-x.dynamixel.json", "openmanipulator-x", ServoProtocol::Dynamixel, {11, 12, 13, 14}, 2048, 2.4,
       {{0, 4096}, {1070, 3026}, {1070, 2961}, {940, 3332}}},
  };
  for (const auto& a : arms) {
    INFO(a.file);
    const ServoCalibration c = servoCalibrationFromJson(servo_arms_bridge::calibrationText(a.file));
    const Model m = builtinModel(a.robot);
    CHECK(c.protocol == a.protocol);
    CHECK(c.baud == 1000000u);
    REQUIRE(static_cast<int>(c.joints.size()) == m.nq);
    REQUIRE(c.joints.size() == a.ids.size());
    for (size_t i = 0; i < c.joints.size(); ++i) {
      const ServoJoint& s = c.joints[i];
      const Joint& j = m.joints[static_cast<size_t>(m.coord_joint[i])];
      INFO(s.name);
      CHECK(s.name == j.name);
      CHECK(s.id == a.ids[i]);
      CHECK(s.direction == 1);
      CHECK(s.zero_offset == a.zero_offset);
      CHECK(s.counts_per_turn == 4096);
      CHECK(s.min == j.limits.lower);
      CHECK(s.max == j.limits.upper);
      CHECK(s.max_velocity == a.max_velocity);
      CHECK(s.max_velocity < j.limits.velocity);
      CHECK(jointToCounts(s, 0.0) == a.zero_offset);
      CHECK(jointToCounts(s, s.min) == a.counts_at_limits[i].first);
      CHECK(jointToCounts(s, s.max) == a.counts_at_limits[i].second);
    }
    // the model's limits are the calibration's: narrowing changes nothing and nothing is cut
    ServoCalibration narrowed = c;
    narrowToModel(narrowed, m);
    for (size_t i = 0; i < c.joints.size(); ++i) {
      CHECK(narrowed.joints[i].min == c.joints[i].min);
      CHECK(narrowed.joints[i].max == c.joints[i].max);
      CHECK(narrowed.joints[i].max_velocity == c.joints[i].max_velocity);
    }
    CHECK(rangeNotes(narrowed, m).empty());
    // and the file round-trips through the writer (the notes key, which the reader ignores, is not written)
    const ServoCalibration back = servoCalibrationFromJson(servoCalibrationToJson(c));
    REQUIRE(back.joints.size() == c.joints.size());
    for (size_t i = 0; i < c.joints.size(); ++i) {
      CHECK(back.joints[i].name == c.joints[i].name);
      CHECK(back.joints[i].id == c.joints[i].id);
      CHECK(back.joints[i].min == c.joints[i].min);
      CHECK(back.joints[i].max == c.joints[i].max);
    }
  }
}
