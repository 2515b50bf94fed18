// Model → MJCF (MuJoCo XML). The body frames are the URDF export's link frames (xml_write.hpp), so that
// MuJoCo's qpos (relative to qpos0 = 0) is achain's q.
#include <achain/io/mjcf.hpp>
#include <achain/math/text.hpp>
#include <achain/model/labels.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include "xml_write.hpp"

namespace achain {
namespace {

using xmlw::g17;
using xmlw::triple;
using xmlw::xmlEscape;

/// pos/quat attributes (identity parts left out, except pos when `need_pos`: <inertial> requires it).
std::string pose(const SE3& T, bool need_pos = false) {
  std::string s;
  if (need_pos || T.p != Vec3::Zero()) s += " pos=\"" + triple(T.p) + "\"";
  if (!T.R.isIdentity(0)) {
    const Eigen::Quaterniond q(T.R);
    s += " quat=\"" + g17(q.w()) + " " + g17(q.x()) + " " + g17(q.y()) + " " + g17(q.z()) + "\"";
  }
  return s;
}

/// The translation law f(u) as MuJoCo's quartic polycoef in u (MuJoCo: y − y₀ = Σ cₖ (x − x₀)ᵏ, qpos0 = 0).
struct QuarticFit {
  double c[5] = {0, 0, 0, 0, 0};
  double max_error = 0;  ///< max |p(u) − f(u)| over [lo, hi] (4001 samples), m
  bool exact = false;
};

double lawValue(const AxialLaw& law, double u) {
  double f, f1, f2, f3;
  law.evaluate(u, f, f1, f2, f3);
  return f;
}

/// Polynomial laws are copied; laws with sine terms are fitted by least squares on 64 Chebyshev nodes of
/// [lo, hi] (close to the minimax fit), in the scaled variable t = (u − mid)/half, then expanded in u.
QuarticFit fitLaw(const AxialLaw& law, double lo, double hi) {
  QuarticFit fit;
  if (law.nsine == 0) {
    fit.c[1] = law.c1;
    fit.c[2] = law.c2;
    fit.c[3] = law.c3;
    fit.exact = true;
    return fit;
  }
  constexpr int N = 64;
  const double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
  Eigen::Matrix<double, N, 5> A;
  Eigen::Matrix<double, N, 1> y;
  for (int k = 0; k < N; ++k) {
    const double t = std::cos((2 * k + 1) * kPi / (2 * N));
    for (int p = 0; p < 5; ++p) A(k, p) = std::pow(t, p);
    y[k] = lawValue(law, mid + half * t);
  }
  const Eigen::Matrix<double, 5, 1> b = A.colPivHouseholderQr().solve(y);
  // Σ b_p ((u − mid)/half)^p = Σ_p b_p half^−p Σ_j C(p, j) u^j (−mid)^(p−j)
  static constexpr int binom[5][5] = {{1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}};
  for (int p = 0; p < 5; ++p)
    for (int j = 0; j <= p; ++j) fit.c[j] += b[p] * std::pow(half, -p) * binom[p][j] * std::pow(-mid, p - j);
  for (int k = 0; k <= 4000; ++k) {
    const double u = lo + (hi - lo) * k / 4000.0;
    const double pu = (((fit.c[4] * u + fit.c[3]) * u + fit.c[2]) * u + fit.c[1]) * u + fit.c[0];
    fit.max_error = std::max(fit.max_error, std::abs(pu - lawValue(law, u)));
  }
  return fit;
}

std::string polycoef(const double* c) {
  return g17(c[0]) + " " + g17(c[1]) + " " + g17(c[2]) + " " + g17(c[3]) + " " + g17(c[4]);
}

}  // namespace

std::string modelToMjcf(const Model& m, std::vector<std::string>* warnings) {
  const int n = m.njoints();
  auto warn = [&](const std::string& w) { if (warnings) warnings->push_back(w); };
  std::set<std::string> bodies, joints;
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    const std::string p = jointLabel(m, i);
    if (j.name.empty()) throw Error(p + ": MJCF needs a joint name");
    if (!bodies.insert(linkName(m, i)).second) throw Error(p + ": the body name " + quoteInput(linkName(m, i)) + " would be used twice");
    if (!joints.insert(j.name).second) throw Error(p + ": MJCF needs unique joint names");
    if (j.kind == JointKind::Fixed) continue;
    if (!m.jmodels[i].law.isZero() && m.jmodels[i].rot != 0 && !joints.insert(j.name + "_slide").second)
      throw Error(p + ": the slide joint name " + quoteInput(j.name + "_slide") + " would be used twice");
    if (std::isfinite(j.limits.lower) != std::isfinite(j.limits.upper))
      throw Error(p + ": MJCF has no one-sided position limit (range needs both ends)");
    std::vector<std::string> lost;
    if (std::isfinite(j.limits.velocity)) lost.push_back("velocity");
    if (std::isfinite(j.limits.effort)) lost.push_back("effort");
    if (std::isfinite(j.limits.acceleration)) lost.push_back("acceleration");
    if (!lost.empty()) {
      std::string s;
      for (const std::string& l : lost) s += (s.empty() ? "" : ", ") + l;
      warn(p + ": the " + s + (lost.size() > 1 ? " limits are" : " limit is") + " not written (MJCF joints carry a position range only)");
    }
    if (j.motor.present) warn(p + ": motor data (rotor inertia, gear ratio, friction) is not written: the MJCF model is the rigid-body model");
    if (j.kind == JointKind::A && j.leg_mass > 0)
      warn(p + ": the six legs' mass is not written (MuJoCo sees the links only; achain's leg model adds their dynamics)");
  }
  const xmlw::ExportFrames fr = xmlw::exportFrames(m);

  // Inertials: principal axes computed here (MuJoCo's fullinertia eigensolver is only ~1e-10 exact).
  bool balance = false, bound = false;
  std::vector<std::string> inertial(n);
  std::vector<char> moving(n, 0);
  for (int i = 0; i < n; ++i) {
    const Joint& j = m.joints[i];
    moving[i] = j.kind != JointKind::Fixed || (j.parent >= 0 && moving[j.parent]);
    const SE3& C = fr.C[i];
    const Mat3 I = C.R * j.link.inertia * C.R.transpose();
    Eigen::SelfAdjointEigenSolver<Mat3> es(0.5 * (I + I.transpose()));
    Mat3 V = es.eigenvectors();
    if (V.determinant() < 0) V.col(2) = -V.col(2);
    Vec3 ev = es.eigenvalues();
    for (int k = 0; k < 3; ++k)
      if (std::abs(ev[k]) < 1e-15 * std::max(1.0, ev.cwiseAbs().maxCoeff())) ev[k] = 0;
    if (ev[0] + ev[1] < ev[2] * (1 - 1e-12)) {
      balance = true;
      warn(jointLabel(m, i) + ": the link inertia breaks the triangle inequality, which MuJoCo enforces: the file sets "
                      "<compiler balanceinertia=\"true\"/> (MuJoCo replaces such inertias by the mean principal moment)");
    }
    if (moving[i] && (j.link.mass <= 0 || ev[0] <= 0)) {
      // MuJoCo refuses a massless moving body ("mass and inertia of moving bodies must be larger than mjMINVAL"):
      // its own remedy is a lower bound the compiler applies, so the file loads and the kinematics are exact
      bound = true;
      warn(jointLabel(m, i) + ": the moving link has zero mass or a singular inertia, which MuJoCo refuses: the file sets <compiler boundmass=\"1e-06\" "
                      "boundinertia=\"1e-09\"/> (MuJoCo raises such links to that mass and inertia; achain's dynamics keep them as given)");
    }
    inertial[i] = "<inertial" + pose(SE3{V, C.act(j.link.com)}, true) + " mass=\"" + g17(j.link.mass) + "\" diaginertia=\"" +
                  triple(ev) + "\"/>";
  }

  // Visual geoms, per body (−1: the world body), in the exported frames.
  std::vector<std::vector<std::string>> geoms(n + 1);
  const std::string nocontact = " contype=\"0\" conaffinity=\"0\"";
  if (!m.geometry.empty()) {
    bool mesh_warned = false;
    for (const Geometry& g : m.geometry) {
      const SE3 T = fr.c(m, g.link) * g.origin;
      std::string s = "<geom";
      if (!g.name.empty()) s += " name=\"" + xmlEscape(g.name) + "\"";
      switch (g.shape) {
        case Geometry::Shape::Box: s += " type=\"box\" size=\"" + triple(0.5 * g.size) + "\""; break;
        case Geometry::Shape::Cylinder: s += " type=\"cylinder\" size=\"" + g17(g.size.x()) + " " + g17(0.5 * g.size.y()) + "\""; break;
        case Geometry::Shape::Sphere: s += " type=\"sphere\" size=\"" + g17(g.size.x()) + "\""; break;
        case Geometry::Shape::Mesh:
          if (!mesh_warned) warn("geometry: mesh shapes are not written (their files are not part of the MJCF text)");
          mesh_warned = true;
          continue;
      }
      s += pose(T) + " group=\"" + (g.collision ? "3" : "1") + "\"" + nocontact;
      if (g.has_color) s += " rgba=\"" + g17(g.rgba[0]) + " " + g17(g.rgba[1]) + " " + g17(g.rgba[2]) + " " + g17(g.rgba[3]) + "\"";
      geoms[g.link + 1].push_back(s + "/>");
    }
  } else {
    double L = 0;
    for (int i = 0; i < n; ++i) L += fr.origin[i].p.norm() + std::abs(m.joints[i].d);
    const double r = std::max(0.005, 0.03 * L / std::max(1, n));
    auto capsule = [&](int body, const Vec3& a, const Vec3& b, double rad) {
      if ((b - a).norm() > 1e-9)
        geoms[body + 1].push_back("<geom type=\"capsule\" fromto=\"" + triple(a) + " " + triple(b) + "\" size=\"" + g17(rad) +
                                  "\" group=\"1\"" + nocontact + "/>");
    };
    for (int i = 0; i < n; ++i) {
      const Joint& j = m.joints[i];
      capsule(j.parent, fr.c(m, j.parent).p, fr.origin[i].p, 0.6 * r);  // parent's link frame → this joint
      capsule(i, Vec3::Zero(), fr.C[i].p, 0.6 * r);                       // this joint → its link frame
      if (j.kind == JointKind::Fixed) continue;
      const Vec3 a = fr.raw_axis[i].normalized();
      if (j.kind == JointKind::A) {  // the two plates: discs through the anchor circles
        const double pr = apairSideFromRho(j.rho) / std::sqrt(3.0);
        const std::string disc = "<geom type=\"cylinder\" fromto=\"" + triple(-0.05 * r * a) + " " + triple(0.05 * r * a) + "\" size=\"" +
                                 g17(pr) + "\" group=\"1\"" + nocontact + "/>";
        geoms[i + 1].push_back(disc);
        const Vec3 ap = fr.origin[i].R * a, o = fr.origin[i].p;
        geoms[j.parent + 1].push_back("<geom type=\"cylinder\" fromto=\"" + triple(o - 0.05 * r * ap) + " " + triple(o + 0.05 * r * ap) +
                                      "\" size=\"" + g17(pr) + "\" group=\"1\"" + nocontact + "/>");
      } else {
        geoms[i + 1].push_back("<geom type=\"cylinder\" fromto=\"" + triple(-1.5 * r * a) + " " + triple(1.5 * r * a) + "\" size=\"" +
                               g17(r) + "\" group=\"1\"" + nocontact + "/>");
      }
    }
  }

  // Bodies, depth first.
  std::vector<std::vector<int>> children(n + 1);
  for (int i = 0; i < n; ++i) children[m.joints[i].parent + 1].push_back(i);
  std::ostringstream body, eq;
  const int tl = m.toolLink();
  std::function<void(int, int)> emit = [&](int i, int depth) {
    const Joint& j = m.joints[i];
    const JointModel& jm = m.jmodels[i];
    const std::string ind(2 * depth + 4, ' ');
    body << ind << "<body name=\"" << xmlEscape(linkName(m, i)) << "\"" << pose(fr.origin[i]) << ">\n";
    if (j.kind != JointKind::Fixed) {
      // MuJoCo needs range[0] < range[1]: a single-value range (a joint locked by its limits) is exported unlimited
      const bool limited = std::isfinite(j.limits.lower) && j.limits.lower < j.limits.upper;
      if (std::isfinite(j.limits.lower) && !limited)
        warn(jointLabel(m, i) + ": its position range [" + g17(j.limits.lower) + ", " + g17(j.limits.upper) +
             "] is a single value, which MuJoCo refuses; exported without a range (limited=\"false\")");
      const std::string range = limited ? " limited=\"true\" range=\"" + g17(j.limits.lower) + " " + g17(j.limits.upper) + "\""
                                        : " limited=\"false\"";
      const bool slide_only = jm.rot == 0;  // P
      body << ind << "  <joint name=\"" << xmlEscape(j.name) << "\" type=\"" << (slide_only ? "slide" : "hinge") << "\" axis=\""
           << triple(fr.axis[i]) << "\"" << range << "/>\n";
      if (j.mimic >= 0)
        eq << "    <joint name=\"" << xmlEscape(j.name + "_mimic") << "\" joint1=\"" << xmlEscape(j.name) << "\" joint2=\""
           << xmlEscape(m.joints[j.mimic].name) << "\" polycoef=\"" << g17(j.mimic_offset) << " " << g17(j.mimic_multiplier)
           << " 0 0 0\"/>\n";
      if (!slide_only && !jm.law.isZero()) {
        const std::string sname = j.name + "_slide";
        body << ind << "  <joint name=\"" << xmlEscape(sname) << "\" type=\"slide\" axis=\"" << triple(fr.raw_axis[i])
             << "\" limited=\"false\"/>\n";
        QuarticFit fit;
        if (jm.law.nsine == 0) {
          fit = fitLaw(jm.law, 0, 0);
        } else {
          if (!limited)
            throw Error(jointLabel(m, i) + ": the " + std::string(toString(j.kind)) +
                        " joint's translation is not a polynomial; MJCF's quartic joint coupling needs a finite position range to fit it over");
          fit = fitLaw(jm.law, j.limits.lower, j.limits.upper);
          std::ostringstream w;
          w.precision(3);
          w << jointLabel(m, i) << ": the translation is MuJoCo's quartic polycoef fitted over [" << j.limits.lower << ", " << j.limits.upper
            << "] rad: max error " << fit.max_error << " m";
          warn(w.str());
        }
        eq << "    <joint name=\"" << xmlEscape(j.name + "_coupling") << "\" joint1=\"" << xmlEscape(sname) << "\" joint2=\""
           << xmlEscape(j.name) << "\" polycoef=\"" << polycoef(fit.c) << "\"/>\n";
      }
    }
    body << ind << "  " << inertial[i] << "\n";
    for (const std::string& g : geoms[i + 1]) body << ind << "  " << g << "\n";
    if (i == tl) body << ind << "  <site name=\"tool\"" << pose(fr.C[i] * m.tool) << "/>\n";
    for (int c : children[i + 1]) emit(c, depth + 1);
    body << ind << "</body>\n";
  };
  for (int r : children[0]) emit(r, 0);

  std::ostringstream x;
  x << "<!-- Written by achain (modelToMjcf): qpos = achain's q; geoms are visual only (contype = conaffinity = 0). -->\n";
  x << "<mujoco model=\"" << xmlEscape(m.name) << "\">\n";
  x << "  <compiler angle=\"radian\" inertiafromgeom=\"false\"" << (balance ? " balanceinertia=\"true\"" : "")
    << (bound ? " boundmass=\"1e-06\" boundinertia=\"1e-09\"" : "") << "/>\n";
  x << "  <option gravity=\"" << triple(m.gravity) << "\"/>\n";
  x << "  <worldbody>\n";
  for (const std::string& g : geoms[0]) x << "    " << g << "\n";
  x << body.str() << "  </worldbody>\n";
  if (!eq.str().empty()) x << "  <equality>\n" << eq.str() << "  </equality>\n";
  x << "</mujoco>\n";
  return x.str();
}

}  // namespace achain
