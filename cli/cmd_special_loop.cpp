// Subcommand `special-loop`: a single loop by the null space of its constraint (Freeman 1985 App. D,
// docs/dynamics.md "Parallel mechanisms and special loops"): the robot file's "loop" section gives the ground
// and the kept joints y; the constrained rows default to the closure's (pin: x, y; point: x, y, z; pose: all six)
// or are chosen with --rows (e.g. x,y,wx,wy,wz for a slider on the z-axis). Works where [G^c_φ] is rank deficient
// (a Bricard 6R: Grübler 0, one freedom) and where a coordinate is idle (the slider-crank's coupler spin).
#include "common.hpp"

#include <achain/closed_chains/special_loop.hpp>
#include <achain/io/loop_json.hpp>

#include <achain/math/text.hpp>
#include <achain/io/robot.hpp>

#include <algorithm>

namespace achain::cli {
namespace {

std::vector<int> parseCoordinates(const Model& m, const std::string& text) {
  std::vector<int> out;
  for (const std::string& tok : splitList(text)) {
    int joint = -1;
    for (int i = 0; i < m.njoints(); ++i)
      if (m.joints[i].name == tok) joint = i;
    if (joint < 0) throw Error("--coordinates: no joint is named " + nameInput(tok, 40));
    const int c = m.idx_q[joint];
    if (c < 0 || m.coord_joint[c] != joint) throw Error("--coordinates: joint " + tok + " has no coordinate of its own");
    out.push_back(c);
  }
  return out;
}

RegisterCommand special_loop_cmd("special-loop", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "special-loop",
      "Special single loop by the null space of its constraint (Freeman App. D; robot file with a \"loop\" section, e.g. "
      "spatial-slider-crank or a Bricard 6R): rank and freedoms of [G^c_phi], [G^phi_y] = N (E N)^-1 (D-1, D-2), "
      "[H^phi_yy], S_y = I*_yy/P*_yyy/T^L_y and the loads T_y for rates --qd/--qdd of the kept joints y");
  static RobotArgs args;
  static std::string rows, coords, q, qd, qdd;
  static bool deg = false;
  args.add(sub, JointInputs::None, "Built-in robot name or robot file (JSON with a \"loop\" section)");
  sub->add_option("--rows", rows,
                  "Constrained rows of the tool's influence: x,y,z (translation), wx,wy,wz (rotation), world frame "
                  "(default: the loop's closure: planar_pin x,y; point x,y,z; pose all six)");
  sub->add_option("--coordinates", coords, "Joints kept as the loop's coordinates y, by name (default: loop.coordinates)");
  sub->add_option("--q", q, "Values of y (default: the file's assembly); the other joints are closed from the assembly");
  sub->add_flag("--deg", deg, "Angular values of --q/--qd/--qdd are in degrees (deg/s, deg/s^2)");
  sub->add_option("--qd", qd, "Rates of y (default zero)");
  sub->add_option("--qdd", qdd, "Accelerations of y (default zero)");
  sub->callback([] {
    run("special-loop", [] {
      const Robot robot = args.read();
      const Model& m = robot.model;
      LoopClosure loop = robot.requireLoop();  // its rows: --rows, or the closure kind's
      if (!rows.empty()) loop.rows = parseInfluenceRows(rows, "--rows");
      if (!coords.empty()) loop.alpha = parseCoordinates(m, coords);
      const int Y = static_cast<int>(loop.alpha.size());
      auto values = [&](const std::string& t, const std::string& what) {
        const std::vector<double> v = parseList(t, what);
        if (static_cast<int>(v.size()) != Y)
          throw Error(what + ": expected " + std::to_string(Y) + " values, one per coordinate (got " +
                      std::to_string(v.size()) + ")");
        VecX out(Y);
        for (int k = 0; k < Y; ++k)
          out[k] = v[k] * (deg && isAngular(m.joints[m.coord_joint[loop.alpha[k]]].kind) ? kDeg : 1.0);
        return out;
      };
      VecX qj = loop.assembly.size() == m.nq ? loop.assembly : VecX::Zero(m.nq);
      if (!q.empty()) {
        const VecX y = values(q, "--q");
        for (int k = 0; k < Y; ++k) qj[loop.alpha[k]] = y[k];
      }
      Data data(m);
      const int iterations = closeNullSpaceLoop(m, data, loop, qj);
      NullSpaceLoopModel nm;
      nullSpaceLoopModel(m, data, loop, qj, VecX::Zero(m.nv), DynamicsOptions{}, nm);
      const VecX yd = qd.empty() ? VecX::Zero(Y) : values(qd, "--qd");
      const VecX ydd = qdd.empty() ? VecX::Zero(Y) : values(qdd, "--qdd");
      const VecX phid = nm.Gphi_y * yd, phidd = nm.Gphi_y * ydd + quadratic(nm.Hphi_yy, yd, yd);
      const VecX Ty = nm.y.Istar * ydd + quadratic(nm.y.Pstar, yd, yd) - nm.y.TL;
      json rj = json::array(), cj = json::array();
      for (int r : constrainedRows(loop)) rj.push_back(kInfluenceRowNames[r]);
      for (int c : loop.alpha) cj.push_back(m.joints[m.coord_joint[c]].name);
      print({{"rows", rj},
             {"coordinates", cj},
             {"iterations", iterations},
             {"M", nm.M},
             {"rank", nm.rank},
             {"grubler", nm.M - static_cast<int>(constrainedRows(loop).size())},
             {"freedoms", nm.M - nm.rank},
             {"compatibility", nm.compatibility},
             {"q", toJson(qj)},
             {"qd", toJson(phid)},
             {"qdd", toJson(phidd)},
             {"G_c_phi", toJson(nm.Gc)},
             {"nullspace", toJson(nm.nullspace)},
             {"G_phi_y", toJson(nm.Gphi_y)},
             {"H_phi_yy", toJson(nm.Hphi_yy)},
             {"phi", toJson(nm.open)},
             {"y", toJson(nm.y)},
             {"T_y", toJson(Ty)}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
