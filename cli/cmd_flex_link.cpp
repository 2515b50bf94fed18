// Subcommand `flex-link`: modal preprocessing of one uniform flexible link (core/include/achain/model/flexible_link.hpp):
// the local inertia blocks, the stiffness and the clamped-root natural frequencies.
#include <cmath>

#include "common.hpp"
#include <achain/model/flexible_link.hpp>

namespace achain::cli {
namespace {

Vec3 parseVec3(const std::string& text, const std::string& what) {
  const auto v = parseList(text, what);
  if (v.size() != 3) throw Error(what + ": expected 3 values, got " + std::to_string(v.size()));
  return Vec3(v[0], v[1], v[2]);
}

RegisterCommand flex_link_cmd("flex-link", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "flex-link",
      "Modal preprocessing of one uniform flexible link (Tesar-Graves): I_mm, I_mL, I_LL, I_mq, I_Lq, I_qq, K and the "
      "clamped-root frequencies det(K - w^2 I_qq) = 0. Any consistent units (SI, or slug/ft/lb as in the paper)");
  static double length = 0, mass = 0, ei = 0, ei_y = 0, ei_z = 0, gj = 0, torsional_inertia = 0, c1 = 1, c2 = 1, r1 = 0;
  static std::string com, inertia, modes = "cubic";
  sub->add_option("--length", length, "Beam length L along the link's x axis, m")->required();
  sub->add_option("--mass", mass, "Link mass, kg (uniform along the beam)")->required();
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
        for (ModeDirection d : {ModeDirection::Y, ModeDirection::Z})
          for (int k = 0; k < static_cast<int>(n[0]); ++k) {
            AssumedMode md;
            md.direction = d;
            md.coefficients.assign(k + 3, 0.0);
            md.coefficients[k + 2] = 1.0;
            f.modes.push_back(md);
          }
        if (gj != 0) f.modes.push_back({ModeDirection::Torsion, {0, 1}, {}, {}});
      } else {
        throw Error("--modes: expected cubic or monomial:N (got '" + modes + "')");
      }
      const FlexibleLinkMatrices mats = flexibleLinkMatrices(f);
      const NaturalModes nm = clampedLinkModes(mats);
      json shapes = json::array();
      for (const auto& md : f.modes) shapes.push_back({{"direction", toString(md.direction)}, {"coefficients", md.coefficients}});
      json freq = json::array();
      for (Eigen::Index k = 0; k < nm.omega.size(); ++k)
        freq.push_back({{"omega", nm.omega[k]}, {"frequency_hz", nm.omega[k] / (2 * kPi)}, {"shape", toJson(VecX(nm.shapes.col(k)))}});
      print({{"modes", shapes},
             {"I_mm", toJson(MatX(mats.I_mm))}, {"I_mL", toJson(MatX(mats.I_mL))}, {"I_LL", toJson(MatX(mats.I_LL))},
             {"I_mq", toJson(mats.I_mq)}, {"I_Lq", toJson(mats.I_Lq)}, {"I_qq", toJson(mats.I_qq)}, {"K", toJson(mats.K)},
             {"clamped_modes", freq}});
    });
  });
});

}  // namespace
}  // namespace achain::cli
