#include <achain/io/kinematics_json.hpp>

#include <cmath>

#include <achain/kinematics/jacobian.hpp>
#include <achain/kinematics/singularity.hpp>
#include <achain/kinematics/statics.hpp>

namespace achain {

namespace {
using nlohmann::json;
json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
json vec(const VecX& v) {
  json a = json::array();
  for (int i = 0; i < v.size(); ++i) a.push_back(num(v[i]));
  return a;
}
json mat(const MatX& M) {
  json rows = json::array();
  for (int r = 0; r < M.rows(); ++r) rows.push_back(vec(M.row(r).transpose()));
  return rows;
}
json summary(const Manipulability& m) {
  return {{"singular_values", vec(m.singular_values)}, {"sigma_min", m.sigma_min}, {"sigma_max", m.sigma_max},
          {"condition", num(m.condition)}, {"inverse_condition", m.inverse_condition}, {"yoshikawa", m.yoshikawa},
          {"rank", m.rank}, {"rank_tolerance", m.rank_tolerance}};
}
json ellipsoid(const Ellipsoid& e) { return {{"axes", mat(e.axes)}, {"radii", vec(e.radii)}}; }
}  // namespace

json singularitiesJson(const Model& model, const Data& data, double tol) {
  if (!(tol > 0)) throw Error("tol: must be > 0");
  json s = json::array();
  for (const auto& x : detectSingularities(model, data, tol))
    s.push_back({{"kind", x.kind}, {"joints", x.joints}, {"measure", x.measure}, {"description", x.description}});
  return s;
}

json manipulabilityReport(const Model& model, const Data& data, double tol) {
  MatX J(6, model.nv);
  toolJacobian(model, data, J);
  json out = summary(manipulability(J));
  const MatX Jv = J.topRows<3>(), Jw = J.bottomRows<3>();
  json lin = summary(manipulability(Jv));
  lin["velocity_ellipsoid"] = ellipsoid(velocityEllipsoid(Jv));
  lin["force_ellipsoid"] = ellipsoid(forceEllipsoid(Jv));
  json ang = summary(manipulability(Jw));
  ang["velocity_ellipsoid"] = ellipsoid(velocityEllipsoid(Jw));
  ang["moment_ellipsoid"] = ellipsoid(forceEllipsoid(Jw));
  out["linear"] = lin;
  out["angular"] = ang;
  out["singularities"] = singularitiesJson(model, data, tol);
  out["length_scale"] = lengthScale(model);
  return out;
}

}  // namespace achain
