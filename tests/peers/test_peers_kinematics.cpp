// Jacobian and J̇·q̇ against Orocos KDL (ChainJntToJacSolver, ChainJntToJacDotSolver in its hybrid
// representation: base-frame rows, reference point the end effector) on 50 random states of the
// R/P built-ins (KDL has no A or H pairs; prototype-4r is the 4A chain's R twin).
#include <catch2/catch.hpp>
#include <random>

#include <achain/kinematics/fk.hpp>
#include "helpers.hpp"
#include <achain/kinematics/jacobian.hpp>
#include <achain/io/robot.hpp>
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chainjnttojacdotsolver.hpp>
#include <kdl/chainjnttojacsolver.hpp>

#include "kdl_chain.hpp"
#endif

using namespace achain;

#ifdef ACHAIN_HAVE_KDL
TEST_CASE("tool Jacobian and Jdot*qd equal KDL's on random states", "[peers][kdl][jacobian]") {
  for (const char* name : {"puma560", "prototype-4r", "stanford", "planar-2r"}) {
    const Model m = builtinModel(name);
    const KDL::Chain chain = peers::toKdlChain(m);
    KDL::ChainJntToJacSolver jac(chain);
    KDL::ChainJntToJacDotSolver jdot(chain);
    jdot.setRepresentation(KDL::ChainJntToJacDotSolver::HYBRID);
    Data d(m);
    MatX J(6, m.nv);
    KDL::Jacobian Jk(m.nv);
    std::mt19937 rng(51);
    for (int k = 0; k < 50; ++k) {
      const VecX q = test::randomConfiguration(m, rng);
      const VecX qd = VecX::Random(m.nv);
      KDL::JntArray kq(m.nv);
      kq.data = q;
      REQUIRE(jac.JntToJac(kq, Jk) >= 0);
      forwardKinematics(m, d, q);
      toolJacobian(m, d, J);
      INFO(name);
      CHECK((J - Jk.data).cwiseAbs().maxCoeff() < 1e-12 * std::max(1.0, J.cwiseAbs().maxCoeff()));
      KDL::JntArrayVel qv(m.nv);
      qv.q.data = q;
      qv.qdot.data = qd;
      KDL::Twist t;
      REQUIRE(jdot.JntToJacDot(qv, t) >= 0);
      const Vec6 a = toolJacobianDotTimesQdot(m, d, qd);
      Vec6 ak;
      ak << t.vel.x(), t.vel.y(), t.vel.z(), t.rot.x(), t.rot.y(), t.rot.z();
      CHECK((a - ak).cwiseAbs().maxCoeff() < 1e-10 * std::max(1.0, ak.cwiseAbs().maxCoeff()));
    }
  }
}
#endif
