// Subcommand `redundant`: a serial chain driving fewer task coordinates u (chosen rows of its tool's influence)
// than it has joints (Freeman 1985 §IV.C, 4-65…4-75; digest §4.4): the kinetic-energy-weighted right
// pseudo-inverse [G^q_u] = I*⁻¹Gᵀ(G I*⁻¹Gᵀ)⁻¹ (Whitney), [H^q_uu], and the partial transfer of the loads,
// T_q = I*_qu ü + u̇ᵀP*_quu u̇ − T^L_q, for task rates --ud/--udd.
#include "common.hpp"

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/closed_chains/redundant.hpp>
#include <achain/kinematics/influence.hpp>

namespace achain::cli {
namespace {

RegisterCommand redundant_cmd("redundant", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "redundant",
      "Redundant actuation (Freeman 4-65..4-75): a chain with more joints than task rows --rows; the kinetic-energy-"
      "weighted pseudo-inverse [G^q_u], [H^q_uu], the partial transfer I*_qu/P*_qu u, the joint rates and the "
      "actuator loads T_q for task rates --ud/--udd (the KE-weighted minimum split)");
  static RobotArgs args;
  static std::string rows, ud, udd;
  args.add(sub);
  sub->add_option("--rows", rows, "Task rows of the tool's influence: x,y,z (m), wx,wy,wz (rad, world frame)")->required();
  sub->add_option("--ud", ud, "Task rates (default zero; wx.. in deg/s with --deg)");
  sub->add_option("--udd", udd, "Task accelerations (default zero)");
  sub->callback([] {
    run("redundant", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q, "--q");
      const std::vector<int> r = parseInfluenceRows(rows, "--rows");
      const int N = static_cast<int>(r.size());
      if (N >= m.nv)
        throw Error("--rows: " + std::to_string(N) + " task rows for " + std::to_string(m.nv) +
                    " joints; a redundant task has fewer rows than joints");
      auto task = [&](const std::string& t, const std::string& what) {
        if (t.empty()) return VecX(VecX::Zero(N));
        const std::vector<double> v = parseList(t, what);
        if (static_cast<int>(v.size()) != N)
          throw Error(what + ": expected " + std::to_string(N) + " values, one per task row (got " +
                      std::to_string(v.size()) + ")");
        VecX out(N);
        for (int k = 0; k < N; ++k) out[k] = v[k] * (args.deg && r[k] >= 3 ? kDeg : 1.0);
        return out;
      };
      const VecX u_d = task(ud, "--ud"), u_dd = task(udd, "--udd");
      Data data(m);
      FreemanModel fm;
      freemanModel(m, data, q, VecX::Zero(m.nv), DynamicsOptions{}, fm);
      Influence inf;
      toolInfluence(m, data, inf, 2);
      MatX Gu(N, m.nv);
      Tensor3 Hu(N, m.nv, m.nv);
      for (int k = 0; k < N; ++k) Gu.row(k) = inf.G.row(r[k]), Hu.plane(k) = inf.H.plane(r[k]);
      RedundantTransfer rt;
      redundantTransfer(Gu, Hu, fm, rt);
      const VecX qd = rt.Gq_u * u_d, qdd = rt.Gq_u * u_dd + quadratic(rt.Hq_uu, u_d, u_d);
      const VecX Tq = rt.Iqu * u_dd + quadratic(rt.Pquu, u_d, u_d) - fm.TL;
      json rj = json::array();
      for (int k : r) rj.push_back(kInfluenceRowNames[k]);
      print({{"rows", rj},
             {"G_u_q", toJson(Gu)},
             {"H_u_qq", toJson(Hu)},
             {"q_model", toJson(fm)},
             {"G_q_u", toJson(rt.Gq_u)},
             {"H_q_uu", toJson(rt.Hq_uu)},
             {"I_qu", toJson(rt.Iqu)},
             {"P_quu", toJson(rt.Pquu)},
             {"qd", toJson(qd)},
             {"qdd", toJson(qdd)},
             {"kinetic_energy", 0.5 * qd.dot(fm.Istar * qd)},
             {"T_q", toJson(Tq)}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
