// Subcommand `parallel`: a parallel mechanism from a parallel robot file (docs/robot-format.md#parallel-mechanisms,
// e.g. the built-in parallel-3rrr of Freeman's App. E or stewart-6ups): solves every leg at the platform pose, and
// prints each leg's model in its joints and in the platform coordinates w (Table E-1), the summed platform model
// (Table E-2), the model actuated at the declared joints (E-7), and the loads for the platform rates.
#include "common.hpp"

#include <achain/closed_chains/parallel_robot.hpp>
#include <achain/closed_chains/redundant.hpp>
#include <achain/io/parallel_json.hpp>
#include <achain/math/text.hpp>

#include <algorithm>

namespace achain::cli {
namespace {

// "leg:joint,…" with the joint by name or by coordinate index; at least the platform's freedoms of them.
std::vector<std::pair<int, int>> parseActuated(const ParallelRobot& pr, const std::string& text) {
  std::vector<std::pair<int, int>> out;
  for (const std::string& tok : splitList(text)) {
    const size_t colon = tok.find(':');
    const std::string where = "--actuate: " + nameInput(tok, 40);
    if (colon == std::string::npos) throw Error(where + " is not leg:joint");
    const std::string ls = tok.substr(0, colon), js = tok.substr(colon + 1);
    if (ls.empty() || ls.find_first_not_of("0123456789") != std::string::npos || ls.size() > 3 ||
        std::stoi(ls) >= static_cast<int>(pr.legs.size()))
      throw Error(where + ": no leg " + nameInput(ls, 20) + " (legs 0…" + std::to_string(pr.legs.size() - 1) + ")");
    const int r = std::stoi(ls);
    const Model& leg = pr.legs[r];
    int c = -1;
    for (int i = 0; i < leg.njoints(); ++i)
      if (leg.joints[i].name == js && leg.idx_q[i] >= 0) c = leg.idx_q[i];
    if (c < 0 && !js.empty() && js.size() < 4 && js.find_first_not_of("0123456789") == std::string::npos &&
        std::stoi(js) < leg.nq)
      c = std::stoi(js);
    if (c < 0) throw Error(where + ": leg " + ls + " has no joint " + nameInput(js, 40));
    for (const auto& a : out)
      if (a.first == r && a.second == c) throw Error(where + " is listed twice");
    out.emplace_back(r, c);
  }
  if (static_cast<int>(out.size()) < pr.freedoms())
    throw Error("--actuate: the platform has " + std::to_string(pr.freedoms()) + " freedoms; " +
                std::to_string(out.size()) + " actuated joints cannot drive it (give at least as many)");
  return out;
}

RegisterCommand parallel_cmd("parallel", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "parallel",
      "Parallel mechanism (a parallel robot file, e.g. parallel-3rrr or stewart-6ups): solve every leg at the platform "
      "pose, print each leg's [G]/[H] and I*/P* in its joints and in the platform coordinates w, the platform model "
      "I*_ww/P*_www/T^L_w summed over the legs (Freeman 4-42..4-54), the model at the actuated joints "
      "I*_qq/P*_qqq/T^L_q (4-55..4-64), and the loads T_w, T_q for platform rates --wd/--wdd");
  static RobotArgs args;
  static std::string pose, wd, wdd, actuate;
  static bool deg = false;
  args.add(sub, JointInputs::None, "Built-in parallel robot name (parallel-3rrr, stewart-6ups) or a parallel robot JSON file");
  sub->add_option("--pose", pose,
                  "Platform pose: x,y,theta (planar) or x,y,z,roll,pitch,yaw (spatial), m and rad (default: the file's "
                  "platform pose)");
  sub->add_flag("--deg", deg, "Angles of --pose and angular rates of --wd/--wdd are in degrees (deg/s, deg/s^2)");
  sub->add_option("--wd", wd, "Platform rates: xd,yd,thetad (planar) or vx,vy,vz,wx,wy,wz (spatial, world frame; default zero)");
  sub->add_option("--wdd", wdd, "Platform accelerations, as --wd (default zero)");
  sub->add_option("--actuate", actuate,
                  "Actuated joints as leg:joint pairs (joint by name or coordinate index, legs from 0), e.g. 0:P,1:P,...: "
                  "as many as the platform's freedoms replace the file's; more give the over-constrained minimum-norm "
                  "split of T_w over them (Freeman 4-80..4-90), printed as \"overconstrained\"");
  sub->callback([] {
    run("parallel", [] {
      ParallelRobot pr = args.read(true).requireParallel();
      std::vector<std::pair<int, int>> act;
      if (!actuate.empty()) act = parseActuated(pr, actuate);
      if (static_cast<int>(act.size()) == pr.freedoms()) pr.actuated = act;
      const int N = pr.freedoms();
      auto values = [&](const std::string& text, const std::string& what) {
        const std::vector<double> v = parseList(text, what);
        if (static_cast<int>(v.size()) != N)
          throw Error(what + ": expected " + std::to_string(N) + " values (got " + std::to_string(v.size()) + ")");
        VecX out(N);
        for (int k = 0; k < N; ++k) {
          const bool angular = pr.planar ? k == 2 : k >= 3;
          out[k] = v[k] * (deg && angular ? kDeg : 1.0);
        }
        return out;
      };
      const SE3 X = pose.empty() ? pr.pose : poseFromCoordinates(values(pose, "--pose"), pr.planar, pr.pose);
      const VecX wdv = wd.empty() ? VecX::Zero(N) : values(wd, "--wd");
      const VecX wddv = wdd.empty() ? VecX::Zero(N) : values(wdd, "--wdd");
      std::vector<Data> datas;
      for (const Model& m : pr.legs) datas.emplace_back(m);
      ParallelState st;
      parallelAt(pr, datas, X, DynamicsOptions{}, st);
      ParallelMotion mo;
      parallelMotion(st, wdv, wddv, mo);
      json legs = json::array();
      for (size_t r = 0; r < pr.legs.size(); ++r)
        legs.push_back({{"name", pr.leg_names[r]},
                        {"q", toJson(st.q[r])},
                        {"iterations", st.iterations[r]},
                        {"qd", toJson(mo.qd[r])},
                        {"qdd", toJson(mo.qdd[r])},
                        {"G_w_phi", toJson(st.pm.Gw_phi[r])},
                        {"H_w_phiphi", toJson(st.pm.Hw_phiphi[r])},
                        {"phi", toJson(st.pm.legs_phi[r])},
                        {"G_phi_w", toJson(st.pm.Gphi_w[r])},
                        {"H_phi_ww", toJson(st.pm.Hphi_ww[r])},
                        {"w", toJson(st.pm.legs_w[r])}});
      json joints = json::array();
      for (const auto& a : pr.actuated)
        joints.push_back({a.first, pr.legs[a.first].joints[pr.legs[a.first].coord_joint[a.second]].name});
      json out = {{"robot", pr.name},
             {"space", pr.planar ? "planar" : "spatial"},
             {"pose", toJson(poseCoordinates(X, pr.planar))},
             {"legs", legs},
             {"w", toJson(st.pm.w)},
             {"T_w", toJson(mo.Tw)},
             {"actuated", {{"joints", joints},
                           {"G_q_w", toJson(st.Gq_w)},
                           {"H_q_ww", toJson(st.Hq_ww)},
                           {"q", toJson(st.q_model)},
                           {"qd", toJson(mo.q_d)},
                           {"qdd", toJson(mo.q_dd)},
                           {"T_q", toJson(mo.Tq)}}}};
      if (static_cast<int>(act.size()) > N) {  // superabundant actuators: the minimum-norm split (4-85…4-90)
        MatX G;
        Tensor3 H;
        parallelActuationRows(st.pm, act, G, H);
        FreemanModel split;
        overconstrainedTransfer(G, st.pm.w, split);
        const VecX Tq = split.Istar * wddv + quadratic(split.Pstar, wdv, wdv) - split.TL;
        json aj = json::array();
        for (const auto& a : act) aj.push_back({a.first, pr.legs[a.first].joints[pr.legs[a.first].coord_joint[a.second]].name});
        out["overconstrained"] = {{"joints", aj},
                                  {"G_q_w", toJson(G)},
                                  {"H_q_ww", toJson(H)},
                                  {"qd", toJson(VecX(G * wdv))},
                                  {"qdd", toJson(VecX(G * wddv + quadratic(H, wdv, wdv)))},
                                  {"split", toJson(split)},
                                  {"T_q", toJson(Tq)},
                                  {"residual", (G.transpose() * Tq - mo.Tw).cwiseAbs().maxCoeff()}};
      }
      print(out);
    });
  });
});

}  // namespace
}  // namespace achain::cli
