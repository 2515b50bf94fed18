#include <achain/dynamics/linearize.hpp>

#include <achain/dynamics/crba.hpp>
#include <achain/dynamics/freeman.hpp>
#include <achain/dynamics/rnea.hpp>
#include <achain/kinematics/fk.hpp>
#include <achain/kinematics/influence.hpp>
#include <achain/kinematics/jacobian.hpp>
#include <achain/model/caps.hpp>
#include <achain/model/labels.hpp>

#include <algorithm>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>

#include "detail.hpp"

namespace achain {

namespace {

/// A point's share of ∂T/∂q: T_i += G(:,i)·f with f = mass(a − g) (inertia) or −mass·g (weight only);
/// a = G q̈ + q̇ᵀHq̇, so ∂T_i/∂q_n = H(:,i,n)·f + G(:,i)·mass(Σ_m H(:,m,n) q̈_m + Σ_{k,m} D(:,k,m,n) q̇_k q̇_m).
/// H and D are the point's true second and third derivatives (symmetric in their joint indices).
void addPointPartials(double mass, const MatX& G, const Tensor3& H, const Tensor4& D, const Eigen::Ref<const VecX>& qd,
                      const Eigen::Ref<const VecX>& qdd,
                      const Vec3& grav, bool inertia, MatX& dT) {
  if (mass == 0) return;
  const int n = static_cast<int>(G.cols());
  Vec3 a = Vec3::Zero();
  if (inertia)
    for (int p = 0; p < 3; ++p) a[p] = G.row(p).dot(qdd) + qd.dot(H.plane(p) * qd);
  const Vec3 f = mass * ((inertia ? a : Vec3::Zero()) - grav);
  for (int nn = 0; nn < n; ++nn) {
    Vec3 da = Vec3::Zero();  // ∂a/∂q_n
    if (inertia)
      for (int p = 0; p < 3; ++p) {
        double s = 0;
        for (int m = 0; m < n; ++m) s += H(p, m, nn) * qdd[m];
        for (int k = 0; k < n; ++k) {
          if (qd[k] == 0) continue;
          for (int m = 0; m < n; ++m) s += D(p, k, m, nn) * qd[k] * qd[m];
        }
        da[p] = s;
      }
    for (int i = 0; i < n; ++i) {
      const Vec3 dG(H(0, i, nn), H(1, i, nn), H(2, i, nn));
      dT(i, nn) += dG.dot(f) + mass * G.col(i).dot(da);
    }
  }
}

/// A body's rotation share of ∂T/∂q: T_i += g^ω_i · (II α + ω × II ω). Along the body's path (joints j, base
/// first) each joint turns with r_j = (∂θ_j/∂q) z_j (world), and r_j moves with every joint k before it:
/// ∂r_j/∂q_n = Σ_{k before j, coordinate n} r_k × r_j. Then ω = Σ r_j q̇_j, α = Σ r_j q̈_j + Σ (Ω_j × r_j) q̇_j with
/// Ω_j the angular velocity of joint j's parent link, and ∂II/∂q_n = [g_n×]II − II[g_n×], g_n = Σ_{coordinate n} r_j.
void addRotationPartials(const Model& model, const Data& data, int link, const Mat3& Ic, const Eigen::Ref<const VecX>& qd,
                         const Eigen::Ref<const VecX>& qdd,
                         MatX& dT) {
  const int n = model.nv;
  std::vector<int> path;
  for (int j = link; j >= 0; j = model.joints[j].parent) path.push_back(j);
  std::reverse(path.begin(), path.end());
  const int P = static_cast<int>(path.size());
  std::vector<Vec3> r(P), Om(P);  // per path joint: its rate axis, its parent link's angular velocity
  std::vector<int> c(P);
  MatX Gw = MatX::Zero(3, n);
  Vec3 w = Vec3::Zero(), alpha = Vec3::Zero();
  for (int k = 0; k < P; ++k) {
    const int j = path[k];
    const JointModel& jm = model.jmodels[j];
    c[k] = jm.coord;
    r[k] = jm.coord < 0 ? Vec3::Zero() : Vec3(jm.scale * jm.rot * data.oMj[j].R.col(2));
    Om[k] = w;
    if (c[k] < 0) continue;
    Gw.col(c[k]) += r[k];
    alpha += r[k] * qdd[c[k]] + Om[k].cross(r[k]) * qd[c[k]];
    w += r[k] * qd[c[k]];
  }
  if (Ic.isZero(0)) return;
  const Mat3& R = data.oMi[link].R;
  const Mat3 II = R * Ic * R.transpose();
  const Vec3 IIw = II * w, nrot = II * alpha + w.cross(IIw);
  auto cross = [](const Vec3& v) {
    Mat3 X;
    X << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
    return X;
  };
  std::vector<Vec3> dr(P);
  MatX dGw(3, n);
  for (int nn = 0; nn < n; ++nn) {
    // ∂r_k/∂q_n, ∂Ω_k/∂q_n, ∂ω, ∂α along the path
    Vec3 before = Vec3::Zero(), dOm = Vec3::Zero(), dw = Vec3::Zero(), dalpha = Vec3::Zero();
    dGw.setZero();
    for (int k = 0; k < P; ++k) {
      dr[k] = before.cross(r[k]);
      if (c[k] >= 0) {
        dGw.col(c[k]) += dr[k];
        dalpha += dr[k] * qdd[c[k]] + (dOm.cross(r[k]) + Om[k].cross(dr[k])) * qd[c[k]];
        dw += dr[k] * qd[c[k]];
        dOm += dr[k] * qd[c[k]];
      }
      if (c[k] == nn) before += r[k];
    }
    const Vec3 gn = Gw.col(nn);
    if (gn.isZero(0) && dw.isZero(0) && dalpha.isZero(0)) continue;
    const Mat3 dII = cross(gn) * II - II * cross(gn);
    const Vec3 dn = dII * alpha + II * dalpha + dw.cross(IIw) + w.cross(dII * w + II * dw);
    for (int i = 0; i < n; ++i) dT(i, nn) += dGw.col(i).dot(nrot) + Gw.col(i).dot(dn);
  }
}

void requireFinite(const MatX& M, const char* what) {
  if (!M.allFinite()) throw Error(std::string("linearize: ") + what + " is not finite at this operating point");
}

/// The tool rows of a "tool" state (checked), all six when none are given; empty for joint coordinates.
std::vector<int> toolRowsOf(const LinearizeOptions& lin, int n) {
  if (lin.coordinates == "joints") {
    if (!lin.tool_rows.empty()) throw Error("linearize: tool_rows are given but the coordinates are \"joints\"");
    return {};
  }
  if (lin.coordinates != "tool")
    throw Error("linearize: coordinates must be \"joints\" or \"tool\" (got \"" + lin.coordinates + "\")");
  std::vector<int> rows = lin.tool_rows;
  if (rows.empty())
    for (int r = 0; r < 6; ++r) rows.push_back(r);
  for (size_t k = 0; k < rows.size(); ++k) {
    if (rows[k] < 0 || rows[k] > 5)
      throw Error("linearize: tool_rows[" + std::to_string(k) + "] = " + std::to_string(rows[k]) +
                  " is not a row of (v, w) (0..5: x, y, z, wx, wy, wz)");
    for (size_t i = 0; i < k; ++i)
      if (rows[i] == rows[k]) throw Error(std::string("linearize: tool row ") + kInfluenceRowNames[rows[k]] + " is listed twice");
  }
  if (static_cast<int>(rows.size()) != n)
    throw Error("linearize: tool coordinates need one tool row per joint coordinate (" + std::to_string(n) + "), got " +
                std::to_string(rows.size()) + (lin.tool_rows.empty() ? " (all six rows; choose " + std::to_string(n) + " of x, y, z, wx, wy, wz)" : ""));
  return rows;
}

/// Freeman's transfer of the state model to hand coordinates (3-47…3-53): x̂ = T x, Â = (Ṫ + T A) T⁻¹, B̂ = T B,
/// Ĉ = C T⁻¹ (linearize.hpp). Needs forwardKinematics at q in data.
void transferToTool(const Model& model, const Data& data, const Eigen::Ref<const VecX>& qd,
                    const Eigen::Ref<const VecX>& qdd, const std::vector<int>& rows, Linearization& out) {
  const int n = model.nv, S = static_cast<int>(out.A.rows());
  Influence inf;
  toolInfluence(model, data, inf, 3);
  MatX J(n, n), Jd = MatX::Zero(n, n), Jdd = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    const int p = rows[i];
    J.row(i) = inf.G.row(p);
    for (int c = 0; c < n; ++c) {
      double d = 0, dd = 0;
      for (int m = 0; m < n; ++m) {
        d += inf.H(p, m, c) * qd[m];
        dd += inf.H(p, m, c) * qdd[m];
        if (qd[m] == 0) continue;
        for (int l = 0; l < n; ++l) dd += inf.D(p, l, m, c) * qd[l] * qd[m];
      }
      Jd(i, c) = d, Jdd(i, c) = dd;
    }
  }
  Eigen::FullPivLU<MatX> lu(J);
  if (!lu.isInvertible()) {
    std::string names;
    for (int i = 0; i < n; ++i) names += std::string(i ? ", " : "") + kInfluenceRowNames[rows[i]];
    throw Error("linearize: the tool rows " + names + " are not coordinates at this configuration: their Jacobian has rank " +
                std::to_string(lu.rank()) + " of " + std::to_string(n) + " (choose other rows or a pose off the singularity)");
  }
  const MatX Ji = lu.inverse();
  MatX T = MatX::Identity(S, S), Ti = MatX::Identity(S, S), Td = MatX::Zero(S, S);
  T.block(0, 0, n, n) = J, T.block(n, 0, n, n) = Jd, T.block(n, n, n, n) = J;
  Ti.block(0, 0, n, n) = Ji, Ti.block(n, 0, n, n) = -Ji * Jd * Ji, Ti.block(n, n, n, n) = Ji;
  Td.block(0, 0, n, n) = Jd, Td.block(n, 0, n, n) = Jdd, Td.block(n, n, n, n) = Jd;
  out.A = (Td + T * out.A) * Ti;
  out.B = T * out.B;
  out.C = out.C * Ti;
  out.T = std::move(T);
}

}  // namespace

void linearizeDynamics(const Model& model, Data& data, const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                       const Eigen::Ref<const VecX>& qdd, const DynamicsOptions& options, const LinearizeOptions& lin,
                       Linearization& out) {
  const int n = model.nv, nj = model.njoints();
  checkConfiguration(model, q);
  checkDynamicsInput(model, qd, "qd");
  checkDynamicsInput(model, qdd, "qdd");
  if (n > kMaxJointsCubic)
    throw Error("linearize: the partials need dof³ influence terms; at most " + std::to_string(kMaxJointsCubic) +
                " joints (this model has " + std::to_string(n) + ")");
  if (options.use_wrench) throw Error("linearize: a tool wrench is not linearised; set it to zero (use_wrench off)");
  if (lin.output != "joints" && lin.output != "tool")
    throw Error("linearize: output must be \"joints\" or \"tool\" (got \"" + lin.output + "\")");
  const std::vector<int> rows = toolRowsOf(lin, n);
  const bool dc = !lin.dc_motors.empty();
  if (dc && lin.dc_motors.size() != 1 && static_cast<int>(lin.dc_motors.size()) != n)
    throw Error("linearize: dc_motors: give one motor for every coordinate or one for all (" + std::to_string(n) +
                " coordinates, got " + std::to_string(lin.dc_motors.size()) + ")");
  for (size_t k = 0; k < lin.dc_motors.size(); ++k) {
    const DcMotor& mo = lin.dc_motors[k];
    const std::string who = "linearize: dc_motors[" + std::to_string(k) + "]";
    for (double v : {mo.torque_constant, mo.back_emf_constant, mo.resistance, mo.inductance})
      if (!std::isfinite(v)) throw Error(who + ": every value must be a finite number");
    if (!(mo.resistance > 0)) throw Error(who + ": resistance must be > 0 ohm");
    if (!(mo.inductance > 0)) throw Error(who + ": inductance must be > 0 H");
    if (mo.torque_constant == 0) throw Error(who + ": a torque constant of 0 gives the joint no input");
  }

  // ∂T/∂q̈ = I* (rotor inertias included with DC motors or options.motors), ∂T/∂q̇ = q̇ᵀ(P* + P*ᵀ) (+ friction)
  DynamicsOptions o = options;
  if (dc) o.motors = true, o.friction = false;  // the motor's viscous friction enters as B_φ below
  FreemanModel fm;
  freemanModel(model, data, q, qd, o, fm);
  out.Istar = fm.Istar;  // = M (CRBA), rotor inertias included with o.motors
  out.dT_dqd.resize(n, n);
  for (int k = 0; k < n; ++k) out.dT_dqd.row(k) = qd.transpose() * (fm.Pstar.plane(k) + fm.Pstar.plane(k).transpose());
  if (o.friction)
    for (int j = 0; j < nj; ++j) {
      const Motor& mo = model.joints[j].motor;
      if (mo.present && model.jmodels[j].independent) out.dT_dqd(model.idx_q[j], model.idx_q[j]) += mo.gear_ratio * mo.gear_ratio * mo.viscous;
    }

  // ∂T/∂q from the bodies (rotor inertias are constant, friction does not depend on q)
  forwardKinematics(model, data, q);
  out.dT_dq.setZero(n, n);
  const auto& bodies = model.bodies[static_cast<int>(o.legs)];
  const Vec3 grav = o.gravityOf(model.gravity);
  MatX G(3, n);
  Tensor3 H;
  Tensor4 D;
  for (int s = 0; s < nj; ++s) {
    const DynBody& b = bodies[s];
    pointInfluence(model, data, s, b.com, G, &H, &D);
    addPointPartials(b.mass, G, H, D, qd, qdd, grav, true, out.dT_dq);
    addRotationPartials(model, data, s, b.inertia, qd, qdd, out.dT_dq);
  }
  if (o.legs == LegModel::Full || o.legs == LegModel::PotentialOnly) {
    MatX Gb(3, n), Gp(3, n);
    Tensor3 Hb, Hp;
    Tensor4 Db, Dp;
    for (const DynLeg& leg : model.legs) {  // the midpoint: ½(B + P), B on the parent, P on the joint's link
      pointInfluence(model, data, leg.joint, leg.P, Gp, &Hp, &Dp);
      if (leg.parent >= 0) {
        pointInfluence(model, data, leg.parent, leg.B, Gb, &Hb, &Db);
      } else {
        Gb.setZero();
        Hb.resize(3, n, n);
        Hb.setZero();
        Db.resize(3, n, n, n);
        Db.setZero();
      }
      G = 0.5 * (Gb + Gp);
      H.resize(3, n, n);
      D.resize(3, n, n, n);
      for (int p = 0; p < 3; ++p) {
        H.plane(p) = 0.5 * (Hb.plane(p) + Hp.plane(p));
        for (int l = 0; l < n; ++l) D.slice(p, l) = 0.5 * (Db.slice(p, l) + Dp.slice(p, l));
      }
      if (o.legs == LegModel::Full)
        addPointPartials(2.0 * leg.mass / 3.0, G, H, D, qd, qdd, grav, true, out.dT_dq);
      else
        addPointPartials(leg.mass, G, H, D, qd, qdd, grav, false, out.dT_dq);
    }
  }
  requireFinite(out.dT_dq, "dT/dq");
  requireFinite(out.dT_dqd, "dT/dqd");

  Eigen::FullPivLU<MatX> lu(out.Istar);
  if (!lu.isInvertible()) {
    std::string which;  // the coordinates that move no mass at all (a zero diagonal), when that is the reason
    int count = 0;
    for (int k = 0; k < n; ++k)
      if (!(out.Istar(k, k) > 0)) which += (count++ ? ", " : "") + coordinateLabel(model, k);
    throw Error("linearize: the inertia matrix is singular at this configuration" +
                (count == 0 ? std::string(" (coordinates whose motions move the same mass)")
                 : count == 1 ? ": " + which + " moves no mass; give its links mass or its motor a rotor inertia"
                              : ": " + which + " move no mass; give their links mass or their motors a rotor inertia"));
  }
  const MatX Mi = lu.inverse();
  const int S = dc ? 3 * n : 2 * n;
  out.A.setZero(S, S);
  out.B.setZero(S, n);
  out.A.block(0, n, n, n).setIdentity();
  out.A.block(n, 0, n, n) = -Mi * out.dT_dq;
  out.A.block(n, n, n, n) = -Mi * out.dT_dqd;
  if (!dc) {
    out.B.block(n, 0, n, n) = Mi;
  } else {
    VecX Bphi = VecX::Zero(n), gear = VecX::Ones(n);
    for (int j = 0; j < nj; ++j) {
      const Motor& mo = model.joints[j].motor;
      if (!mo.present || !model.jmodels[j].independent) continue;
      gear[model.idx_q[j]] = mo.gear_ratio;
      Bphi[model.idx_q[j]] = mo.gear_ratio * mo.gear_ratio * mo.viscous;
    }
    for (int k = 0; k < n; ++k) {
      const DcMotor& mo = lin.dc_motors[lin.dc_motors.size() == 1 ? 0 : k];
      const double CM = gear[k] * mo.torque_constant, CE = gear[k] * mo.back_emf_constant;
      out.A.block(n, n, n, n).col(k) -= Mi.col(k) * Bphi[k];  // −I*⁻¹ B_φ
      out.A.block(n, 2 * n, n, n).col(k) = Mi.col(k) * CM;      // I*⁻¹ C_M
      out.A(2 * n + k, n + k) = -CE / mo.inductance;            // −L⁻¹ C_E
      out.A(2 * n + k, 2 * n + k) = -mo.resistance / mo.inductance;
      out.B(2 * n + k, k) = 1 / mo.inductance;
    }
  }
  if (lin.output == "joints") {
    out.C.setZero(n, S);
    out.C.block(0, 0, n, n).setIdentity();
    out.D.setZero(n, n);
  } else {
    MatX J(6, n);
    toolJacobian(model, data, J);
    out.C.setZero(6, S);
    out.C.block(0, 0, 6, n) = J;
    out.D.setZero(6, n);
  }
  if (lin.coordinates == "tool") {
    transferToTool(model, data, qd, qdd, rows, out);
  } else {
    out.T.setIdentity(S, S);
  }
  requireFinite(out.A, "A");
  out.poles = Eigen::EigenSolver<MatX>(out.A, false).eigenvalues();
}

void frequencyResponse(const Linearization& lin, const Eigen::Ref<const VecX>& omega, int input, int output,
                       FrequencyResponse& out) {
  const int S = static_cast<int>(lin.A.rows()), m = static_cast<int>(lin.B.cols()), r = static_cast<int>(lin.C.rows());
  if (lin.A.cols() != S || lin.B.rows() != S || lin.C.cols() != S || lin.D.rows() != r || lin.D.cols() != m || S == 0)
    throw Error("frequencyResponse: the state space has inconsistent sizes (A " + std::to_string(lin.A.rows()) + "x" +
                std::to_string(lin.A.cols()) + ", B " + std::to_string(lin.B.rows()) + "x" + std::to_string(m) + ", C " +
                std::to_string(r) + "x" + std::to_string(lin.C.cols()) + ")");
  if (input < 0 || input >= m)
    throw Error("frequencyResponse: input " + std::to_string(input) + " is out of range (" + std::to_string(m) +
                " inputs, 0-based)");
  if (output < 0 || output >= r)
    throw Error("frequencyResponse: output " + std::to_string(output) + " is out of range (" + std::to_string(r) +
                " outputs, 0-based)");
  const int N = static_cast<int>(omega.size());
  if (N == 0) throw Error("frequencyResponse: no frequencies given");
  for (int k = 0; k < N; ++k)
    if (!std::isfinite(omega[k]) || !(omega[k] > 0))
      throw Error("frequencyResponse: omega[" + std::to_string(k) + "] = " + std::to_string(omega[k]) +
                  " must be a finite frequency > 0 rad/s");
  out.input = input;
  out.output = output;
  out.omega = omega;
  out.response.resize(N);
  out.magnitude.resize(N);
  out.magnitude_db.resize(N);
  out.phase_deg.resize(N);
  // workspaces, allocated once: the complex matrix jωI − A, its LU, B's column and the solution
  Eigen::MatrixXcd M = -lin.A.cast<std::complex<double>>();
  Eigen::PartialPivLU<Eigen::MatrixXcd> lu(S);
  const Eigen::VectorXcd b = lin.B.col(input).cast<std::complex<double>>();
  const Eigen::RowVectorXcd c = lin.C.row(output).cast<std::complex<double>>();
  Eigen::VectorXcd x(S);
  const std::complex<double> d = lin.D(output, input);
  double previous = 0;
  for (int k = 0; k < N; ++k) {
    for (int i = 0; i < S; ++i) M(i, i) = std::complex<double>(-lin.A(i, i), omega[k]);
    lu.compute(M);
    x.noalias() = lu.solve(b);
    std::complex<double> g = d;
    for (int i = 0; i < S; ++i) g += c[i] * x[i];
    out.response[k] = g;
    out.magnitude[k] = std::abs(g);
    out.magnitude_db[k] = 20 * std::log10(out.magnitude[k]);
    double phase = std::arg(g) / kDeg;  // (−180°, 180°]
    if (k > 0) phase += 360.0 * std::round((previous - phase) / 360.0);  // the branch nearest the previous point
    out.phase_deg[k] = previous = phase;
  }
}

std::vector<double> poleFrequencies(const Eigen::VectorXcd& poles) {
  double big = 1;
  for (int k = 0; k < poles.size(); ++k) big = std::max(big, std::abs(poles[k]));
  std::vector<double> w;
  for (int k = 0; k < poles.size(); ++k) {
    const double a = std::abs(poles[k]);
    if (std::isfinite(a) && a > 1e-6 * big) w.push_back(a);  // a double pole at 0 comes out as ±√ε·|A|
  }
  std::sort(w.begin(), w.end());
  std::vector<double> out;
  for (double a : w)
    if (out.empty() || a - out.back() > 1e-9 * a) out.push_back(a);
  return out;
}

VecX frequencyGrid(const Eigen::VectorXcd& poles, int points, double lo, double hi) {
  if (points < 2 || points > 1000000)
    throw Error("frequencyGrid: points must be from 2 to 1000000 (got " + std::to_string(points) + ")");
  if (lo == 0 && hi == 0) {
    const std::vector<double> w = poleFrequencies(poles);
    lo = w.empty() ? 0.1 : 0.1 * w.front();
    hi = w.empty() ? 100 : 10 * w.back();
  } else if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo > 0) || !(hi > lo)) {
    throw Error("frequencyGrid: the range must be 0 < lo < hi rad/s (got " + std::to_string(lo) + ", " +
                std::to_string(hi) + ")");
  }
  VecX omega(points);
  const double a = std::log10(lo), step = (std::log10(hi) - a) / (points - 1);
  for (int k = 0; k < points; ++k) omega[k] = std::pow(10.0, a + step * k);
  omega[0] = lo, omega[points - 1] = hi;
  return omega;
}

std::vector<JointTransferFunction> jointTransferFunctions(const Model& model, Data& data, const Eigen::Ref<const VecX>& q,
                                                          const Eigen::Ref<const VecX>& qd, const DynamicsOptions& options) {
  checkConfiguration(model, q);
  checkDynamicsInput(model, qd, "qd");
  DynamicsOptions o = options;
  o.motors = false;
  MatX M(model.nv, model.nv);
  massMatrix(model, data, q, o, M);
  std::vector<JointTransferFunction> out(model.nv);
  for (int k = 0; k < model.nv; ++k) out[k].J = M(k, k), out[k].B = 0;  // no motor: G = 1, J_m = 0
  for (int j = 0; j < model.njoints(); ++j) {
    const Motor& mo = model.joints[j].motor;
    if (!mo.present || !model.jmodels[j].independent) continue;
    const int k = model.idx_q[j];
    const double G = mo.gear_ratio;
    if (G == 0) throw Error("jointdynamics: " + jointLabel(model, j) + " has a gear ratio of 0");
    JointTransferFunction& t = out[k];
    t.J = mo.rotor_inertia + M(k, k) / (G * G);
    t.B = mo.viscous;
    const double v = qd[k] * G;  // motor speed
    if (v > 0) t.B += mo.coulomb_pos / v;
    else if (v < 0) t.B += mo.coulomb_neg / -v;
  }
  for (auto& t : out) t.denominator = {t.J, t.B, 0.0};
  return out;
}

}  // namespace achain
