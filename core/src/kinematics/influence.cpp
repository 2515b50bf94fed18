#include <achain/kinematics/influence.hpp>
#include <achain/model/caps.hpp>

#include "joint_path.hpp"

#include <algorithm>
#include <string>

namespace achain {

namespace {

/// D (dof³ numbers per row) is refused past kMaxJointsCubic joints before it is allocated.
void requireCubicSize(int n) {
  if (n > kMaxJointsCubic)
    throw Error("order: third-order coefficients need 6·dof³ numbers; at most " + std::to_string(kMaxJointsCubic) +
                " joints (this model has " + std::to_string(n) + ")");
}

/// Writes the requested parts. Translation goes to rows/planes [tOff, tOff+3) when tOff ≥ 0,
/// rotation to [rOff, rOff+3) when rOff ≥ 0. G/H/D must already have the right shape and be zero.
/// Contributions are added: joints that follow one coordinate (mimics) sum into its column.
void fill(const std::vector<PathJoint>& path, int K, int tOff, int rOff, Eigen::Ref<MatX> G, Tensor3* H,
          Tensor4* D) {
  for (int t = 0; t < K; ++t) {
    const PathJoint& a = path[t];
    if (tOff >= 0) G.block<3, 1>(tOff, a.col) += a.g;
    if (rOff >= 0) G.block<3, 1>(rOff, a.col) += a.w;
  }
  if (!H) return;
  auto putH = [&](int off, int m, int n, const Vec3& v) {
    for (int r = 0; r < 3; ++r) (*H)(off + r, m, n) += v[r];
  };
  for (int s = 0; s < K; ++s) {
    const PathJoint& a = path[s];
    for (int t = s; t < K; ++t) {
      const PathJoint& b = path[t];
      if (tOff >= 0) {
        if (s == t) {
          putH(tOff, a.col, a.col, a.w.cross(a.g) + a.b2 * a.z);
        } else {
          const Vec3 h = a.w.cross(b.g);  // symmetric
          putH(tOff, a.col, b.col, h);
          putH(tOff, b.col, a.col, h);
        }
      }
      if (rOff >= 0 && s != t) putH(rOff, a.col, b.col, a.w.cross(b.w));  // h_{mn}, m before n; h_{nm} = 0
    }
  }
  if (!D) return;
  auto hT = [&](int s, int t) -> Vec3 {  // translational h between path positions s and t (per joint pair)
    if (s == t) return path[s].w.cross(path[s].g) + path[s].b2 * path[s].z;
    return path[std::min(s, t)].w.cross(path[std::max(s, t)].g);
  };
  auto putD = [&](int off, int l, int m, int n, const Vec3& v) {
    for (int r = 0; r < 3; ++r) (*D)(off + r, l, m, n) += v[r];
  };
  for (int L = 0; L < K; ++L) {
    const PathJoint& pl = path[L];
    for (int s = 0; s < K; ++s) {
      const PathJoint& pm = path[s];
      for (int t = 0; t < K; ++t) {
        const PathJoint& pn = path[t];
        if (tOff >= 0) {
          Vec3 d;
          if (s != t) {
            const int i = std::min(s, t), k = std::max(s, t);
            const PathJoint& pi = path[i];
            const PathJoint& pk = path[k];
            d = pi.w.cross(hT(L, k));
            if (L < i) d += pl.w.cross(pi.w).cross(pk.g);
          } else {
            d = pn.w.cross(hT(L, t));
            if (L < t) d += pl.w.cross(pn.w).cross(pn.g) + pn.b2 * pl.w.cross(pn.z);
            if (L == t) d += pn.b3 * pn.z;
          }
          putD(tOff, pl.col, pm.col, pn.col, d);
        }
        if (rOff >= 0 && s < t) {
          Vec3 d = Vec3::Zero();
          if (L < s) d += pl.w.cross(pm.w).cross(pn.w);
          if (L < t) d += pm.w.cross(pl.w.cross(pn.w));
          putD(rOff, pl.col, pm.col, pn.col, d);
        }
      }
    }
  }
}

void checkG(const Model& model, const Eigen::Ref<MatX>& G, int rows, const char* what) {
  if (G.rows() != rows || G.cols() != model.nv)
    throw Error(std::string(what) + ": must be " + std::to_string(rows) + "×" + std::to_string(model.nv));
}

}  // namespace

void influence(const Model& model, const Data& data, int link, const Vec3& point_in_link, Influence& out, int order) {
  kin_detail::checkLink(model, link);
  if (order < 1 || order > 3) throw Error("order: must be 1, 2 or 3 (got " + std::to_string(order) + ")");
  const int n = model.nv;
  if (order >= 3) requireCubicSize(n);
  out.G.resize(6, n);
  out.G.setZero();
  if (order >= 2) {
    out.H.resize(6, n, n);
    out.H.setZero();
  }
  if (order >= 3) {
    out.D.resize(6, n, n, n);
    out.D.setZero();
  }
  out.order = order;
  auto& path = data.kin.path;
  const int K = kin_detail::buildJointPath(model, data, link, data.oMi[link].act(point_in_link));
  fill(path, K, 0, 3, out.G, order >= 2 ? &out.H : nullptr, order >= 3 ? &out.D : nullptr);
}

void toolInfluence(const Model& model, const Data& data, Influence& out, int order) {
  const int link = model.toolLink();
  influence(model, data, link, data.oMi[link].inverse().act(data.oMtool.p), out, order);
}

/// Checks and zeroes the outputs of the 3-row influence functions (G 3×n, H 3×n×n, D 3×n×n×n).
static void prepareRows3(const Model& model, int link, Eigen::Ref<MatX> G, Tensor3* H, Tensor4* D) {
  kin_detail::checkLink(model, link);
  checkG(model, G, 3, "G");
  const int n = model.nv;
  G.setZero();
  if (D && !H) throw Error("D: needs H (the third order is built from the second)");
  if (H) {
    H->resize(3, n, n);
    H->setZero();
  }
  if (D) {
    requireCubicSize(n);
    D->resize(3, n, n, n);
    D->setZero();
  }
}

void rotationInfluence(const Model& model, const Data& data, int link, Eigen::Ref<MatX> G, Tensor3* H, Tensor4* D) {
  prepareRows3(model, link, G, H, D);
  auto& path = data.kin.path;
  const int K = kin_detail::buildJointPath(model, data, link, data.oMi[link].p);
  fill(path, K, -1, 0, G, H, D);
}

void pointInfluence(const Model& model, const Data& data, int link, const Vec3& point_in_link, Eigen::Ref<MatX> G,
                    Tensor3* H, Tensor4* D) {
  prepareRows3(model, link, G, H, D);
  auto& path = data.kin.path;
  const int K = kin_detail::buildJointPath(model, data, link, data.oMi[link].act(point_in_link));
  fill(path, K, 0, -1, G, H, D);
}

void influenceAcceleration(const MatX& G, const Tensor3& H, const Eigen::Ref<const VecX>& qd,
                           const Eigen::Ref<const VecX>& qdd, Eigen::Ref<VecX> out) {
  if (qd.size() != G.cols() || qdd.size() != G.cols()) throw Error("qd, qdd: must have " + std::to_string(G.cols()) + " entries");
  if (out.size() != G.rows()) throw Error("out: must have " + std::to_string(G.rows()) + " entries");
  if (H.planes() != G.rows() || H.rows() != G.cols() || H.cols() != G.cols()) throw Error("H: shape does not match G");
  for (int p = 0; p < G.rows(); ++p) out[p] = G.row(p).dot(qdd) + qd.dot(H.plane(p) * qd);
}

void influenceJerk(const MatX& G, const Tensor3& H, const Tensor4& D, const Eigen::Ref<const VecX>& qd,
                   const Eigen::Ref<const VecX>& qdd, const Eigen::Ref<const VecX>& qddd, Eigen::Ref<VecX> out) {
  const int n = static_cast<int>(G.cols());
  if (qd.size() != n || qdd.size() != n || qddd.size() != n) throw Error("qd, qdd, qddd: must have " + std::to_string(n) + " entries");
  if (out.size() != G.rows()) throw Error("out: must have " + std::to_string(G.rows()) + " entries");
  if (H.planes() != G.rows() || H.rows() != n || H.cols() != n) throw Error("H: shape does not match G");
  if (D.planes() != G.rows() || D.dim1() != n || D.rows() != n || D.cols() != n) throw Error("D: shape does not match G");
  for (int p = 0; p < G.rows(); ++p) {
    // Σ (2h_ab + h_ba) q̇_a q̈_b = 2 q̇ᵀ H q̈ + q̈ᵀ H q̇
    double s = G.row(p).dot(qddd) + 2.0 * qd.dot(H.plane(p) * qdd) + qdd.dot(H.plane(p) * qd);
    for (int l = 0; l < n; ++l)
      if (qd[l] != 0) s += qd[l] * qd.dot(D.slice(p, l) * qd);
    out[p] = s;
  }
}

}  // namespace achain
