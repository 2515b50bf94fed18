// Subcommand `drive-modes` (formerly `modes`): linearised modal analysis of the rigid chain with lumped joint springs (Spong's model,
// core/include/achain/flexibility/joint_flexibility.hpp) about one configuration.
#include <cmath>

#include "common.hpp"
#include <achain/flexibility/joint_flexibility.hpp>
#include <achain/kinematics/fk.hpp>

namespace achain::cli {
namespace {

RegisterCommand drive_modes_cmd("drive-modes", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "drive-modes",
      "Natural frequencies and mode shapes with lumped joint flexibility (Spong): det(K - w^2 M(q)) = 0 with the "
      "motors locked, or det(K* - w^2 I*) = 0 over (q, theta) with the motors free; no gravity stiffness, no damping. "
      "(modes: its former name, kept for one release)");
  sub->alias("modes");
  static RobotArgs args;
  static DriveArgs drive;
  static std::string motor_inertia, motor = "locked", legs = "full";
  static int sweep_coordinate = -1, steps = 20;
  static double sweep_to = 0;
  args.add(sub);
  drive.add(sub, "--joint-stiffness", "", false);
  sub->add_option("--motor", motor, "Motor side: locked (servo-stiff, default) or free");
  sub->add_option("--motor-inertia", motor_inertia,
                  "With --motor free: rotor inertia reflected to the joint J_m*G^2, kg*m^2 (one value or one per coordinate; "
                  "default: the robot's motor data)");
  sub->add_option("--legs", legs, "A-pair leg model for M(q): massless | lumped | full | potential (default full)");
  auto* sc = sub->add_option("--sweep-coordinate", sweep_coordinate,
                             "Frequency map: sweep this coordinate (0-based) from its --q value to --sweep-to");
  sub->add_option("--sweep-to", sweep_to, "End value of the swept coordinate (rad / m, degrees with --deg)")->needs(sc);
  sub->add_option("--steps", steps, "Intervals of the sweep (default 20)")->check(CLI::Range(1, 1000))->needs(sc);
  sub->callback([] {
    run("drive-modes", [] {
      const Robot robot = args.read();
      const Model& m = robot.model;
      const VecX q = args.joints(m, args.q, "--q");
      checkConfiguration(m, q);
      const MotorSide side = motorSideFromString(motor);
      JointFlexibility flex = drive.read(robot);
      if (!motor_inertia.empty()) {
        if (side != MotorSide::Free) throw Error("--motor-inertia: only with --motor free");
        flex.motor_inertia = perCoordinate(m, motor_inertia, "--motor-inertia");
      } else if (side == MotorSide::Free) {
        if (flex.motor_inertia.size() != m.nv) flex.motor_inertia = VecX::Constant(m.nv, std::nan(""));
        for (int i = 0; i < m.nv; ++i) {
          if (std::isfinite(flex.motor_inertia[i])) continue;  // the file's drive block gives it
          const Motor& mo = m.joints[m.coord_joint[i]].motor;
          if (!mo.present)
            throw Error("--motor-inertia: required with --motor free (joint '" + m.joints[m.coord_joint[i]].name +
                        "' has no motor data)");
          flex.motor_inertia[i] = mo.rotor_inertia * mo.gear_ratio * mo.gear_ratio;
        }
      }
      DynamicsOptions o;
      o.legs = legModelFromString(legs);
      Data data(m);
      const NaturalModes r = jointFlexibilityModes(m, data, q, flex, side, o);
      json modes = json::array();
      for (Eigen::Index k = 0; k < r.omega.size(); ++k)
        modes.push_back({{"omega", r.omega[k]}, {"frequency_hz", r.omega[k] / (2 * kPi)}, {"shape", toJson(VecX(r.shapes.col(k)))}});
      json sweep = nullptr;
      if (sweep_coordinate >= 0) {
        if (sweep_coordinate >= m.nv)
          throw Error("--sweep-coordinate: " + std::to_string(sweep_coordinate) + " is out of range (the robot has " +
                      std::to_string(m.nv) + " coordinates)");
        VecX end = q;
        const bool angular = isAngular(m.joints[m.coord_joint[sweep_coordinate]].kind);
        end[sweep_coordinate] = args.deg && angular ? sweep_to * kDeg : sweep_to;
        json qs = json::array(), fs = json::array();
        VecX qk = q;
        for (int k = 0; k <= steps; ++k) {
          qk[sweep_coordinate] = q[sweep_coordinate] + (end[sweep_coordinate] - q[sweep_coordinate]) * k / steps;
          const NaturalModes rk = jointFlexibilityModes(m, data, qk, flex, side, o);
          qs.push_back(qk[sweep_coordinate]);
          fs.push_back(toJson(VecX(rk.omega / (2 * kPi))));
        }
        sweep = {{"coordinate", m.joints[m.coord_joint[sweep_coordinate]].name}, {"q", qs}, {"frequency_hz", fs}};
      }
      json coords = json::array();
      for (int i = 0; i < m.nv; ++i) coords.push_back(m.joints[m.coord_joint[i]].name);
      if (side == MotorSide::Free)
        for (int i = 0; i < m.nv; ++i) coords.push_back("motor:" + m.joints[m.coord_joint[i]].name);
      print({{"motor", toString(side)},
             {"legs", toString(o.legs)},
             {"joint_stiffness", toJson(flex.stiffness)},
             {"motor_inertia", side == MotorSide::Free ? toJson(flex.motor_inertia) : json(nullptr)},
             {"coordinates", coords},
             {"shape_normalisation", "mass-normalised (shape^T I* shape = 1), largest entry positive"},
             {"modes", modes},
             {"sweep", sweep}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
