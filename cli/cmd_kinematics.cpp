// Subcommands of the differential-kinematics area: jacobian, influence, manipulability, statics.
#include "common.hpp"
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/io/kinematics_json.hpp>
#include <achain/kinematics/singularity.hpp>
#include <achain/kinematics/statics.hpp>

namespace achain::cli {
namespace {

/// --point x,y,z --link k (a point fixed on link k, 0-based, in that link's frame; default the tool).
struct PointArgs {
  std::string point;
  int link = -1;
  void add(CLI::App* sub) {
    sub->add_option("--point", point, "A point fixed on --link, in that link's frame (m), e.g. 0,0,0.1 (default: the tool origin)");
    sub->add_option("--link", link, "Link index (0-based: the body joint k moves; default: the tool's link)");
  }
  /// Resolves (link, point in link frame) after FK.
  void resolve(const Model& m, const Data& d, int& lk, Vec3& p) const {
    if (link < -1 || link >= m.njoints())
      throw Error("--link: must be in [0, " + std::to_string(m.njoints() - 1) + "] (got " + std::to_string(link) + ")");
    lk = link < 0 ? m.toolLink() : link;
    if (!point.empty()) {
      const auto v = parseList(point, "--point");
      if (v.size() != 3) throw Error("--point: expected 3 values (x,y,z in metres), got " + std::to_string(v.size()));
      p = Vec3(v[0], v[1], v[2]);
    } else if (link < 0 || link == m.toolLink()) {
      p = d.oMi[lk].inverse().act(d.oMtool.p);
    } else {
      p = Vec3::Zero();
    }
  }
};

Frame parseFrame(const std::string& f) {
  if (f == "base") return Frame::Base;
  if (f == "tool") return Frame::Tool;
  throw Error("--frame: must be 'base' or 'tool' (got '" + f + "')");
}

json tensorJson(const Tensor3& H) {
  json planes = json::array();
  for (int p = 0; p < H.planes(); ++p) planes.push_back(toJson(MatX(H.plane(p))));
  return planes;
}

RegisterCommand jacobian_cmd("jacobian", [](CLI::App& app) {
  auto* sub = app.add_subcommand("jacobian", "Geometric Jacobian (rows vx,vy,vz,wx,wy,wz) of the tool or of a point on a link");
  static RobotArgs args;
  static PointArgs pt;
  static std::string frame = "base", qd;
  static bool analytic = false;
  args.add(sub);
  pt.add(sub);
  sub->add_option("--frame", frame, "Frame the rows are expressed in: base or tool");
  sub->add_option("--qd", qd, "Joint rates: also print Jdot (base frame) and Jdot_qd = Jdot*qd");
  sub->add_flag("--analytic", analytic, "Also print the analytical Jacobian Ja for roll-pitch-yaw (rows x,y,z,roll,pitch,yaw)");
  sub->callback([] {
    run("jacobian", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q);
      checkConfiguration(m, q);
      const Frame f = parseFrame(frame);
      Data d(m);
      forwardKinematics(m, d, q);
      int link;
      Vec3 p;
      pt.resolve(m, d, link, p);
      MatX J(6, m.nv);
      pointJacobian(m, d, link, p, J);
      MatX Jb = J;
      if (f == Frame::Tool) rotateJacobian(d.oMtool.R, J);
      json out = {{"J", toJson(J)}, {"frame", frame}, {"link", link}, {"point", {p.x(), p.y(), p.z()}},
                  {"rank", manipulability(Jb).rank}};
      if (!qd.empty()) {
        const VecX v = args.joints(m, qd, "--qd");
        MatX Jd(6, m.nv);
        pointJacobianDerivative(m, d, link, p, v, Jd);
        out["Jdot"] = toJson(Jd);
        out["Jdot_qd"] = toJson(VecX(Jd * v));
      }
      if (analytic) {
        MatX Ja(6, m.nv);
        analyticalJacobian(m, d, Ja);
        out["Ja"] = toJson(Ja);
        out["rpy"] = toJson(VecX(matrixToRpy(d.oMtool.R)));
      }
      print(out);
    });
  });
});

RegisterCommand influence_cmd("influence", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "influence", "Freeman's influence coefficients G (6xn), H (6 planes of nxn, H[p][m][n] = d2u_p/dq_m dq_n) and D");
  static RobotArgs args;
  static PointArgs pt;
  static int order = 2;
  static std::string qd, qdd, qddd;
  args.add(sub);
  pt.add(sub);
  sub->add_option("--order", order, "Highest order: 1 (G), 2 (G, H) or 3 (G, H, D)");
  sub->add_option("--qd", qd, "Joint rates: with --qdd prints the acceleration G*qdd + qd'*H*qd");
  sub->add_option("--qdd", qdd, "Joint accelerations");
  sub->add_option("--qddd", qddd, "Joint jerks: with --qd, --qdd and --order 3 prints the jerk");
  sub->callback([] {
    run("influence", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q);
      checkConfiguration(m, q);
      Data d(m);
      forwardKinematics(m, d, q);
      int link;
      Vec3 p;
      pt.resolve(m, d, link, p);
      const bool wantAcc = !qd.empty() || !qdd.empty();
      if (wantAcc && (qd.empty() || qdd.empty())) throw Error("--qd and --qdd: give both for the acceleration");
      if (!qddd.empty() && order < 3) throw Error("--qddd: needs --order 3");
      Influence inf;
      influence(m, d, link, p, inf, order);
      json out = {{"G", toJson(inf.G)}, {"rows", {"vx", "vy", "vz", "wx", "wy", "wz"}}, {"link", link},
                  {"point", {p.x(), p.y(), p.z()}}, {"order", order}};
      if (order >= 2) out["H"] = tensorJson(inf.H);
      if (order >= 3) {
        json D = json::array();
        for (int r = 0; r < 6; ++r) {
          json Dl = json::array();
          for (int l = 0; l < m.nv; ++l) Dl.push_back(toJson(MatX(inf.D.slice(r, l))));
          D.push_back(Dl);
        }
        out["D"] = D;
      }
      if (wantAcc) {
        if (order < 2) throw Error("--qd/--qdd: need --order 2 or 3");
        const VecX v = args.joints(m, qd, "--qd"), a = args.joints(m, qdd, "--qdd");
        VecX acc(6);
        influenceAcceleration(inf.G, inf.H, v, a, acc);
        out["acceleration"] = toJson(acc);
        if (!qddd.empty()) {
          VecX jerk(6);
          influenceJerk(inf.G, inf.H, inf.D, v, a, args.joints(m, qddd, "--qddd"), jerk);
          out["jerk"] = toJson(jerk);
        }
      }
      print(out);
    });
  });
});

RegisterCommand manip_cmd("manipulability", [](CLI::App& app) {
  auto* sub = app.add_subcommand("manipulability",
                                 "SVD, condition, Yoshikawa measure, rank, ellipsoids and named singularities at the tool");
  static RobotArgs args;
  static double tol = 1e-6;
  args.add(sub);
  sub->add_option("--tol", tol, "Threshold of the named singularity detectors (dimensionless)");
  sub->callback([] {
    run("manipulability", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q);
      checkConfiguration(m, q);
      if (!(tol > 0)) throw Error("--tol: must be > 0");
      Data d(m);
      forwardKinematics(m, d, q);
      json out = manipulabilityReport(m, d, tol);
      print(out);
    });
  });
});

RegisterCommand statics_cmd("statics", [](CLI::App& app) {
  auto* sub = app.add_subcommand("statics", "Joint torques tau = J^T F balancing a tool wrench F = (fx,fy,fz,mx,my,mz)");
  static RobotArgs args;
  static std::string wrench, frame = "base";
  args.add(sub);
  sub->add_option("--wrench", wrench, "Wrench the tool exerts, N and N*m, at the tool origin")->required();
  sub->add_option("--frame", frame, "Frame of the wrench: base or tool");
  sub->callback([] {
    run("statics", [] {
      const Model m = args.model();
      const VecX q = args.joints(m, args.q);
      checkConfiguration(m, q);
      const auto w = parseList(wrench, "--wrench");
      if (w.size() != 6) throw Error("--wrench: expected 6 values (fx,fy,fz,mx,my,mz), got " + std::to_string(w.size()));
      Data d(m);
      forwardKinematics(m, d, q);
      Vec6 F;
      for (int i = 0; i < 6; ++i) F[i] = w[i];
      print({{"tau", toJson(staticTorques(m, d, F, parseFrame(frame)))}, {"frame", frame}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
