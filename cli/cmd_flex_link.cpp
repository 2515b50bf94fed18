// Subcommand `flex-link`: modal preprocessing of one uniform flexible link (core/include/achain/model/flexible_link.hpp):
// the local inertia blocks, the stiffness and the clamped-root natural frequencies.
#include <cmath>

#include "common.hpp"
#include <achain/io/flexible_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/io/model_json.hpp>
#include <achain/model/flexible_link.hpp>

namespace achain::cli {
namespace {

Vec3 parseVec3(const std::string& text, const std::string& what) {
  const auto v = parseList(text, what);
  if (v.size() != 3) throw Error(what + ": expected 3 values, got " + std::to_string(v.size()));
  return Vec3(v[0], v[1], v[2]);
}

/// The matrices with SI coordinates taken to the file's units: velocities (length, angle per s), modal coordinates
/// (coordinate_unit), kinetic energy in mass·length²/s², strain energy in force·length.
FlexibleLinkMatrices inFileUnits(const FlexibleLinkMatrices& si, const FlexibleLinks& f, const FlexibleLinkEntry& e) {
  const Eigen::Index m = si.I_qq.rows();
  VecX a(6 + m);
  a << VecX::Constant(3, f.length_unit), VecX::Constant(3, f.angle_unit),
      Eigen::Map<const VecX>(e.coordinate_unit.data(), m);
  const MatX A = a.asDiagonal() * si.localInertia() * a.asDiagonal() / (f.mass_unit * f.length_unit * f.length_unit);
  FlexibleLinkMatrices out;
  out.I_mm = A.block<3, 3>(0, 0);
  out.I_mL = A.block<3, 3>(0, 3);
  out.I_LL = A.block<3, 3>(3, 3);
  out.I_mq = A.block(0, 6, 3, m);
  out.I_Lq = A.block(3, 6, 3, m);
  out.I_qq = A.block(6, 6, m, m);
  const VecX c = a.tail(m);
  out.K = c.asDiagonal() * si.K * c.asDiagonal() / (f.force_unit * f.length_unit);
  return out;
}

/// Prints the blocks, the modes used and the clamped-root natural modes (frequencies are unit-free; the shapes are
/// over the SI modal coordinates), plus `extra`.
void printMatrices(const FlexibleLink& f, const FlexibleLinkMatrices& mats, const NaturalModes& nm, json extra) {
  json shapes = json::array();
  for (const auto& md : f.modes) {
    json s = {{"direction", toString(md.direction)}};
    if (md.u_samples.empty()) s["coefficients"] = md.coefficients;
    else s["u"] = md.u_samples, s["values"] = md.values;
    shapes.push_back(s);
  }
  json freq = json::array();
  for (Eigen::Index k = 0; k < nm.omega.size(); ++k)
    freq.push_back({{"omega", nm.omega[k]}, {"frequency_hz", nm.omega[k] / (2 * kPi)}, {"shape", toJson(VecX(nm.shapes.col(k)))}});
  extra.update({{"modes", shapes},
                {"I_mm", toJson(MatX(mats.I_mm))}, {"I_mL", toJson(MatX(mats.I_mL))}, {"I_LL", toJson(MatX(mats.I_LL))},
                {"I_mq", toJson(mats.I_mq)}, {"I_Lq", toJson(mats.I_Lq)}, {"I_qq", toJson(mats.I_qq)}, {"K", toJson(mats.K)},
                {"clamped_modes", freq}});
  print(extra);
}

RegisterCommand flex_link_cmd("flex-link", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "flex-link",
      "Modal preprocessing of one uniform flexible link (Tesar-Graves): I_mm, I_mL, I_LL, I_mq, I_Lq, I_qq, K and the "
      "clamped-root frequencies det(K - w^2 I_qq) = 0. Either a link of a robot file (--robot, --link: its flexible "
      "block) or a link from --length, --mass, ... in any consistent units (SI, or slug/ft/lb as in the paper)");
  static RobotArgs args;
  static std::string units = "si";
  static int link = -1;
  args.add(sub, JointInputs::None, "A robot file or built-in whose joint --link has a flexible block (e.g. space-arm)", false);
  sub->add_option("--link", link, "With --robot: the link, by the index (0-based) of the joint that moves it, with a flexible block (space-arm: 1 and 2, the paper's links 2 and 3)");
  sub->add_option("--units", units, "With --robot: si (default) or file: the matrices in the robot file's units "
                                    "(modal coordinates in its length unit for bending, its angle unit for torsion)");
  static double length = std::nan(""), mass = std::nan(""), ei = 0, ei_y = 0, ei_z = 0, gj = 0, torsional_inertia = 0, c1 = 1, c2 = 1, r1 = 0;
  static std::string com, inertia, modes = "cubic";
  sub->add_option("--length", length, "Beam length L along the link's x axis, m (without --robot)");
  sub->add_option("--mass", mass, "Link mass, kg (uniform along the beam; without --robot)");
  sub->add_option("--ei", ei, "Bending stiffness EI for both transverse directions, N*m^2 (or --ei-y / --ei-z)");
  sub->add_option("--ei-y", ei_y, "Bending stiffness for deflection along y, N*m^2 (overrides --ei)");
  sub->add_option("--ei-z", ei_z, "Bending stiffness for deflection along z, N*m^2 (overrides --ei)");
  sub->add_option("--gj", gj, "Torsional stiffness GJ, N*m^2/rad (needed by the torsion mode)");
  sub->add_option("--torsional-inertia", torsional_inertia, "Rotary inertia J about the beam axis, kg*m^2 (torsion mode)");
  sub->add_option("--com", com, "Centre of mass x,y,z in the link frame, m (default L/2,0,0)");
  sub->add_option("--inertia", inertia, "Inertia about the CoM ixx,iyy,izz (principal, link axes), kg*m^2 (default J, mL^2/12, mL^2/12)");
  sub->add_option("--modes", modes,
                  "cubic: the paper's five modes (c1(u^2+r1 u^3), c2(u^2+r2 u^3) along y and z, torsion u; r2 from "
                  "orthogonality); monomial:N: u^2..u^(N+1) along y and along z, plus torsion u when --gj is given");
  sub->add_option("--c1", c1, "cubic: scale factor c1 (default 1)");
  sub->add_option("--c2", c2, "cubic: scale factor c2 (default 1)");
  sub->add_option("--r1", r1, "cubic: ratio r1 = d1/c1 of the first mode (default 0, giving r2 = -1.2)");
  sub->callback([] {
    run("flex-link", [] {
      if (!args.robot.empty()) {
        if (!std::isnan(length) || !std::isnan(mass) || ei != 0 || ei_y != 0 || ei_z != 0 || gj != 0 || torsional_inertia != 0 || !com.empty() ||
            !inertia.empty() || modes != "cubic")
          throw Error("--robot: the link comes from the robot file's flexible block; drop --length, --mass, --ei, --gj, "
                      "--torsional-inertia, --com, --inertia and --modes");
        if (units != "si" && units != "file") throw Error("--units: expected si or file (got '" + units + "')");
        const Robot robot = args.read();
        const Model& m = robot.model;
        const FlexibleLinks fl = robot.flexible_links.value_or(FlexibleLinks{});
        if (link < 0 || link >= m.njoints())
          throw Error("--link: expected a joint index from 0 to " + std::to_string(m.njoints() - 1) + " (got " + std::to_string(link) + ")");
        const FlexibleLinkEntry* e = fl.find(link);
        if (!e) {
          std::string have;
          for (const auto& x : fl.links) have += (have.empty() ? "" : ", ") + std::to_string(x.joint);
          throw Error("--link: joint " + std::to_string(link) + " ('" + m.joints[link].name + "') of " + args.robot +
                      " has no flexible block (flexible: " + (have.empty() ? "none" : have) + ")");
        }
        const FlexibleLinkMatrices si = flexibleLinkMatrices(e->link);
        const FlexibleLinkMatrices mats = units == "file" ? inFileUnits(si, fl, *e) : si;
        printMatrices(e->link, mats, clampedLinkModes(si),
                      {{"joint", link}, {"name", m.joints[link].name}, {"units", units}});
        return;
      }
      if (std::isnan(length) || std::isnan(mass)) throw Error("--length and --mass: required (or --robot and --link)");
      FlexibleLink f;
      f.length = length;
      f.body.mass = mass;
      f.ei_y = ei_y != 0 ? ei_y : ei;
      f.ei_z = ei_z != 0 ? ei_z : ei;
      f.gj = gj;
      f.torsional_inertia = torsional_inertia;
      f.body.com = com.empty() ? Vec3(length / 2, 0, 0) : parseVec3(com, "--com");
      f.body.inertia = (inertia.empty() ? Vec3(torsional_inertia, mass * length * length / 12, mass * length * length / 12)
                                        : parseVec3(inertia, "--inertia")).asDiagonal();
      if (modes == "cubic") {
        f.modes = clampedCubicModes(c1, c2, r1);
      } else if (modes.rfind("monomial:", 0) == 0) {
        const auto n = parseList(modes.substr(9), "--modes monomial:N");
        if (n.size() != 1 || n[0] < 1 || n[0] > 8 || n[0] != std::floor(n[0]))
          throw Error("--modes: monomial:N needs a whole N from 1 to 8 (got '" + modes.substr(9) + "')");
        f.modes = monomialModes(static_cast<int>(n[0]), gj != 0);
      } else {
        throw Error("--modes: expected cubic or monomial:N (got '" + modes + "')");
      }
      const FlexibleLinkMatrices mats = flexibleLinkMatrices(f);
      printMatrices(f, mats, clampedLinkModes(mats), json::object());
    });
  });
});

}  // namespace
}  // namespace achain::cli
