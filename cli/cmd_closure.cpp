// Subcommand `closure`: a single closed loop declared in a robot file's "loop" section (Freeman 1985 §IV.A,
// docs/dynamics.md "Closed chains"): closes the loop by Newton at the given coordinates y = (α; f) and
// prints the closed configuration, the transfer [G], [H], I*, P* in φ, w and y, the actuator loads T_y and
// the constraint loads T_c, and optionally the model re-actuated at other joints.
#include "common.hpp"

#include <achain/closed_chains/loop_closure.hpp>
#include <achain/dynamics/rnea.hpp>

#include <cmath>
#include <achain/io/loop_json.hpp>
#include <achain/io/robot.hpp>

namespace achain::cli {
namespace {

RegisterCommand closure_cmd("closure", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "closure",
      "Closed loop (robot file with a \"loop\" section, e.g. five-bar): close the loop at the coordinates y = (alpha; f), "
      "print the closed joints, [G]/[H] transfers, I*/P* in phi, w = (alpha; e) and y, actuator loads T_y and constraint "
      "loads T_c (Freeman 4-30/4-31), and with --actuate the model re-actuated at other joints (4-32..4-41)");
  static RobotArgs args;
  static std::string q, qd, qdd, actuate, tau;
  static bool deg = false, linearize = false;
  static double duration = 0, dt = 1e-3;
  args.add(sub, JointInputs::None, "Built-in robot name or robot file (JSON with a \"loop\" section)");
  sub->add_option("--q", q,
                  "Coordinates y: the kept joints alpha (loop.coordinates order), then for a planar_pin the tool angle "
                  "theta_z (rad; default: the file's assembly)");
  sub->add_flag("--deg", deg, "Angular values of --q/--qd/--qdd are in degrees (deg/s, deg/s^2)");
  sub->add_option("--qd", qd, "Rates of y (default zero)");
  sub->add_option("--qdd", qdd, "Accelerations of y (default zero)");
  sub->add_option("--actuate", actuate, "Re-actuate at these joint indices (as many as y has entries), e.g. 0,1");
  sub->add_flag("--linearize", linearize,
                "Also print the closed chain's linearised dynamics in y about (--q, --qd, --qdd): the state x = (y, yd), "
                "inputs T_y, outputs y: A, B, C, D, poles, dT_dy, dT_dyd and I*_yy");
  sub->add_option("--duration", duration,
                  "Also simulate the closed chain from (--q, --qd) for this many seconds (RK4, the loop re-closed at every "
                  "stage; planar_pin or pose closures): series t, y, yd, energy (KE + PE, J)");
  sub->add_option("--dt", dt, "Simulation step in s (default 0.001)");
  sub->add_option("--tau", tau, "Constant actuator loads T_y during the simulation (N*m / N; default zero)");
  sub->callback([] {
    run("closure", [] {
      const Robot robot = args.read();
      const Model& m = robot.model;
      const LoopClosure& loop = robot.requireLoop();
      const int Y = static_cast<int>(loop.alpha.size()) + closureSpaceSize(loop.kind) - closureConstraintCount(loop.kind);
      const bool planar = loop.kind == ClosureKind::PlanarPin;
      auto ys = [&](const std::string& text, const std::string& what, int count) {
        const std::vector<double> v = parseList(text, what);
        if (static_cast<int>(v.size()) != count)
          throw Error(what + ": expected " + std::to_string(count) + " values (got " + std::to_string(v.size()) + ")");
        VecX out(count);
        for (int k = 0; k < count; ++k) {
          const bool angular = k < static_cast<int>(loop.alpha.size())
                                   ? isAngular(m.joints[m.coord_joint[loop.alpha[k]]].kind)
                                   : true;  // the planar pin's θz; rotations of a spatial closure
          out[k] = v[k] * (deg && angular ? kDeg : 1.0);
        }
        return out;
      };
      VecX qj = loop.assembly.size() == m.nq ? loop.assembly : VecX::Zero(m.nq);
      VecX f_target;
      if (!q.empty()) {
        const int given = static_cast<int>(loop.alpha.size()) + (planar ? 1 : 0);
        const VecX y = ys(q, "--q", given);
        for (size_t k = 0; k < loop.alpha.size(); ++k) qj[loop.alpha[k]] = y[k];
        if (planar) f_target = y.tail(1);
      }
      Data data(m);
      const int iterations = closeLoop(m, data, loop, qj, f_target);
      const VecX yd = qd.empty() ? VecX::Zero(Y) : ys(qd, "--qd", Y);
      const VecX ydd = qdd.empty() ? VecX::Zero(Y) : ys(qdd, "--qdd", Y);
      ClosedChainModel cm;
      closedChainModel(m, data, loop, qj, VecX::Zero(m.nv), DynamicsOptions{}, cm);
      VecX phid(m.nv), phidd(m.nv), Ty(Y), Tc(cm.R);
      closedChainRates(cm, yd, ydd, phid, phidd);
      closedChainLoads(cm, yd, ydd, Ty, Tc);
      json alpha = json::array();
      for (int a : loop.alpha) alpha.push_back(a);
      json out = {{"closure", toString(loop.kind)},
                  {"alpha", alpha},
                  {"iterations", iterations},
                  {"q", cli::toJson(qj)},
                  {"qd", cli::toJson(phid)},
                  {"qdd", cli::toJson(phidd)},
                  {"e", cli::toJson(closureEnd(m, data, loop.kind))},
                  {"G_w_phi", cli::toJson(cm.Gw_phi)},
                  {"H_w_phiphi", cli::toJson(cm.Hw_phiphi)},
                  {"G_phi_w", cli::toJson(cm.Gphi_w)},
                  {"H_phi_ww", cli::toJson(cm.Hphi_ww)},
                  {"phi", cli::toJson(cm.open)},
                  {"w", cli::toJson(cm.w)},
                  {"y", cli::toJson(cm.y)},
                  {"T_y", cli::toJson(Ty)},
                  {"T_c", cli::toJson(Tc)}};
      if (linearize) {
        Linearization lin;
        linearizeClosedChain(m, data, loop, qj, yd, ydd, DynamicsOptions{}, LinearizeOptions{}, lin);
        json states = json::array(), inputs = json::array(), poles = json::array();
        for (const char* part : {"y", "yd"})
          for (int k = 0; k < Y; ++k) states.push_back(part + std::to_string(k + 1));
        for (int k = 0; k < Y; ++k) inputs.push_back("T_y" + std::to_string(k + 1));
        for (int k = 0; k < lin.poles.size(); ++k) poles.push_back({lin.poles[k].real(), lin.poles[k].imag()});
        out["linearized"] = {{"states", states}, {"inputs", inputs}, {"A", cli::toJson(lin.A)}, {"B", cli::toJson(lin.B)},
                             {"C", cli::toJson(lin.C)}, {"D", cli::toJson(lin.D)}, {"poles", poles},
                             {"dT_dy", cli::toJson(lin.dT_dq)}, {"dT_dyd", cli::toJson(lin.dT_dqd)},
                             {"Istar", cli::toJson(lin.Istar)}};
      }
      if (!actuate.empty()) {
        std::vector<int> act;
        for (double v : parseList(actuate, "--actuate")) {
          if (v != std::floor(v)) throw Error("--actuate: joint indices must be integers");
          act.push_back(static_cast<int>(v));
        }
        MatX Gq;
        Tensor3 Hq;
        FreemanModel mq;
        reactuate(cm, act, Gq, Hq, mq);
        VecX qa(Y), qad(Y);
        for (int n = 0; n < Y; ++n) qa[n] = phid[act[n]], qad[n] = phidd[act[n]];
        const VecX Tq = mq.Istar * qad + quadratic(mq.Pstar, qa, qa) - mq.TL;
        json aj = json::array();
        for (int a : act) aj.push_back(a);
        out["reactuated"] = {{"joints", aj},       {"G_q_y", cli::toJson(Gq)}, {"H_q_yy", cli::toJson(Hq)},
                             {"model", cli::toJson(mq)}, {"T_q", cli::toJson(Tq)}};
      }
      if (duration > 0) {
        if (!(dt > 0) || duration / dt > 1e6) throw Error("--dt: must be > 0 and give at most 1e6 steps");
        VecX Tsim = VecX::Zero(Y);
        if (!tau.empty()) {  // loads are never in degrees
          const std::vector<double> v = parseList(tau, "--tau");
          if (static_cast<int>(v.size()) != Y)
            throw Error("--tau: expected " + std::to_string(Y) + " values (got " + std::to_string(v.size()) + ")");
          for (int k = 0; k < Y; ++k) Tsim[k] = v[k];
        }
        VecX y = closedChainCoordinates(m, data, loop, qj), ydv = yd, qs = qj;
        const DynamicsOptions o;
        json t = json::array(), ya = json::array(), yda = json::array(), energy = json::array();
        auto record = [&](double time) {
          VecX phid_s(m.nv), phidd_s(m.nv);
          closedChainRates(cm, ydv, VecX::Zero(Y), phid_s, phidd_s);
          t.push_back(time);
          ya.push_back(cli::toJson(y));
          yda.push_back(cli::toJson(ydv));
          energy.push_back(kineticEnergy(m, data, qs, phid_s, o) + potentialEnergy(m, data, qs, o));
        };
        record(0);
        const int steps = static_cast<int>(std::lround(duration / dt));
        for (int k = 1; k <= steps; ++k) {
          closedChainStep(m, data, loop, qs, y, ydv, Tsim, dt, o, cm);
          record(k * dt);
        }
        out["sim"] = {{"t", t}, {"y", ya}, {"yd", yda}, {"energy", energy}};
      }
      print(out);
    });
  });
});

}  // namespace
}  // namespace achain::cli
