#include <achain/kinematics/fk.hpp>

#include <cmath>

#if defined(__EMSCRIPTEN__)
extern "C" void sincos(double, double*, double*);  // musl's libm (declared by math.h only under _GNU_SOURCE)
#endif

namespace achain {

namespace {
/// sin and cos of one angle in one libm call (glibc's and musl's sincos share the argument reduction).
/// GCC already fuses std::sin + std::cos of one argument into sincos; clang (Emscripten's wasm build)
/// does not, so there the pair cost two reductions: written out here, both builds make the same call.
inline void sinCos(double x, double& s, double& c) {
#if defined(__EMSCRIPTEN__)
  ::sincos(x, &s, &c);
#elif defined(__GNUC__) && !defined(__clang__)
  __builtin_sincos(x, &s, &c);
#else
  s = std::sin(x);
  c = std::cos(x);
#endif
}
}  // namespace

void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q) {
  checkData(model, data);
  const int n = model.njoints();
  const bool standard = model.convention == DHConvention::Standard;
  for (int i = 0; i < n; ++i) {
    const Joint& j = model.joints[i];
    const SE3& parent = j.parent < 0 ? model.base : data.oMi[j.parent];
    const JointModel& jm = model.jmodels[i];
    JointState js;
    jm.evaluate(jm.coord < 0 ? 0.0 : q[jm.coord], js);
    const double th = js.theta, dz = js.dz;
    data.theta[i] = th;
    data.dz[i] = dz;
    data.rot_rate[i] = js.rot_rate;
    data.axial_rate[i] = js.axial_rate;
    data.axial_curv[i] = js.axial_curv;
    data.axial_jerk[i] = js.axial_jerk;
    double s, c;
    sinCos(th, s, c);
    const bool dh_standard = standard && !j.has_origin;  // pre = I, post = Tx(a)·Rx(α)
    SE3& axis = data.oMj[i];
    if (dh_standard) {
      axis = parent;
    } else {
      axis = parent * model.pre[i];
    }
    // Motion Rz(θ) Tz(dz) applied in the axis frame.
    SE3& out = data.oMi[i];
    const Mat3& Ra = axis.R;
    Mat3 Rm;
    Rm.col(0) = c * Ra.col(0) + s * Ra.col(1);
    Rm.col(1) = -s * Ra.col(0) + c * Ra.col(1);
    Rm.col(2) = Ra.col(2);
    const Vec3 pm = axis.p + dz * Ra.col(2);
    if (dh_standard) {
      // post = Tx(a) Rx(α)
      const double ca = model.post[i].R(1, 1), sa = model.post[i].R(2, 1);  // post = Tx(a)·Rx(α)
      out.p = pm + j.a * Rm.col(0);
      out.R.col(0) = Rm.col(0);
      out.R.col(1) = ca * Rm.col(1) + sa * Rm.col(2);
      out.R.col(2) = -sa * Rm.col(1) + ca * Rm.col(2);
    } else if (j.has_origin) {
      out.R = Rm * model.post[i].R;  // post = R_alignᵀ (no translation)
      out.p = pm;
    } else {
      out.R = Rm;
      out.p = pm;
    }
  }
  data.oMtool = data.oMi[model.toolLink()] * model.tool;
}

void checkConfiguration(const Model& model, const Eigen::Ref<const VecX>& q) {
  if (q.size() != model.nq)
    throw Error("q: expected " + std::to_string(model.nq) + " values, got " + std::to_string(q.size()));
  for (int i = 0; i < q.size(); ++i)
    if (!std::isfinite(q[i])) throw Error("q[" + std::to_string(i) + "]: must be a finite number");
}

bool withinLimits(const Model& model, const Eigen::Ref<const VecX>& q, double tol) {
  for (int i = 0; i < model.njoints(); ++i) {
    const JointModel& jm = model.jmodels[i];
    if (jm.coord < 0) continue;
    const double v = jm.scale * q[jm.coord] + jm.offset;  // the joint's own variable (mimics included)
    const JointLimits& L = model.joints[i].limits;
    if (v < L.lower - tol || v > L.upper + tol) return false;
  }
  return true;
}

}  // namespace achain
