// Data: one thread's scratch for every algorithm, sized once from a Model.
#include <achain/model/data.hpp>


namespace achain {


Data::Data(const Model& m)
    : nv(m.nv), njoints(m.njoints()), model_fingerprint(m.fingerprint), oMi(m.njoints()), oMj(m.njoints()), theta(m.njoints()), dz(m.njoints()),
      rot_rate(m.njoints()), axial_rate(m.njoints()), axial_curv(m.njoints()),
      axial_jerk(m.njoints()) {
  const int n = njoints;
  kin.path.resize(n);
  kin.J.resize(6, m.nv);
  for (auto* v : {&dyn.S_w, &dyn.S_v, &dyn.V_w, &dyn.V_v, &dyn.A_w, &dyn.A_v, &dyn.F_n, &dyn.F_f, &dyn.com_w}) v->assign(n, Vec3::Zero());
  dyn.Ic_w.assign(n, Mat3::Zero());
  dyn.mass.assign(n, 0.0);
  dyn.Icomp.assign(n, Eigen::Matrix<double, 6, 6>::Zero());
  dyn.U6.assign(n, Eigen::Matrix<double, 6, 1>::Zero());
  for (VecX* v : {&dyn.tmp_a, &dyn.tmp_b, &dyn.tmp_c, &dyn.tmp_d, &dyn.zero, &dyn.q_stage, &dyn.v_stage}) *v = VecX::Zero(nv);
  for (int k = 0; k < 4; ++k) {
    dyn.k_q[k] = VecX::Zero(nv);
    dyn.k_v[k] = VecX::Zero(nv);
  }
  dyn.M = MatX::Zero(nv, nv);
  dyn.MinvJt = MatX::Zero(nv, 6);
  // Size the Cholesky scratch by factoring the identity: that also sets its status. Assigning
  // Eigen::LLT<MatX>(nv) instead copied an uninitialised ComputationInfo (UBSan: invalid enum load).
  dyn.llt.compute(MatX::Identity(nv, nv));
  ik.J = MatX::Zero(6, nv);
  ik.Jw = MatX::Zero(6, nv);
  ik.A = MatX::Zero(nv, nv);
  ik.Ar = MatX::Zero(nv, nv);
  ik.e = VecX::Zero(6);
  for (VecX* v : {&ik.g, &ik.dq, &ik.gr, &ik.dqr}) *v = VecX::Zero(nv);
  for (VecX* v : {&ik.q, &ik.qtry, &ik.qbest, &ik.best_start, &ik.qkeep, &ik.lo, &ik.hi}) *v = VecX::Zero(m.nq);
  ik.free_idx = Eigen::VectorXi::Zero(nv);
  ik.llt.compute(MatX::Identity(nv, nv));  // sized and initialised, as dyn.llt above

}

void failDataMismatch(const Model& model, const Data& data) {
  if (data.nv != model.nv || data.njoints != model.njoints())
    throw Error("data: made for a model with " + std::to_string(data.njoints) + " joints and " +
                std::to_string(data.nv) + " coordinates, used with " + std::to_string(model.njoints()) + " and " +
                std::to_string(model.nv));
  throw Error("data: made for another model than '" + model.name +
              "' (same size, another description): make a Data for each model, Data data(model)");
}

}  // namespace achain
