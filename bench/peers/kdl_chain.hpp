// An Orocos KDL chain built from an achain Model (R and P joints only; A/H pairs have no KDL
// equivalent — benchmark the R twin, e.g. prototype-4r, beside prototype-4a).
#pragma once
#ifdef ACHAIN_HAVE_KDL
#include <kdl/chain.hpp>
#include <kdl/frames.hpp>
#include <kdl/rigidbodyinertia.hpp>

#include <achain/model/model.hpp>

namespace achain::peers {

inline KDL::Frame toKdl(const SE3& T) {
  return KDL::Frame(KDL::Rotation(T.R(0, 0), T.R(0, 1), T.R(0, 2), T.R(1, 0), T.R(1, 1), T.R(1, 2), T.R(2, 0), T.R(2, 1), T.R(2, 2)),
                    KDL::Vector(T.p.x(), T.p.y(), T.p.z()));
}

/// Serial standard-DH chain → KDL chain (base and tool as fixed segments).
/// Throws achain::Error for A or H joints, trees, or the modified convention.
inline KDL::Chain toKdlChain(const Model& m) {
  if (m.convention != DHConvention::Standard) throw Error("KDL peer: convert to standard DH first");
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("base", KDL::Joint(KDL::Joint::None), toKdl(m.base)));
  for (int i = 0; i < m.njoints(); ++i) {
    const Joint& j = m.joints[i];
    if (j.parent != i - 1) throw Error("KDL peer: only serial chains");
    if (j.kind == JointKind::A || j.kind == JointKind::H) throw Error("KDL peer: no A or H joints in KDL");
    const Inertial& I = j.link;
    const KDL::RotationalInertia Ic(I.inertia(0, 0), I.inertia(1, 1), I.inertia(2, 2), I.inertia(0, 1), I.inertia(0, 2), I.inertia(1, 2));
    const KDL::RigidBodyInertia rbi(I.mass, KDL::Vector(I.com.x(), I.com.y(), I.com.z()), Ic);
    if (j.kind == JointKind::R) {
      chain.addSegment(KDL::Segment(j.name, KDL::Joint(j.name, KDL::Joint::RotZ, j.sign), KDL::Frame::DH(j.a, j.alpha, j.d, j.theta_f), rbi));
    } else {
      // P: translation along z by s·q, then the constant DH part with d.
      chain.addSegment(KDL::Segment(j.name, KDL::Joint(j.name, KDL::Joint::TransZ, j.sign), KDL::Frame::DH(j.a, j.alpha, j.d, j.theta_f), rbi));
    }
  }
  chain.addSegment(KDL::Segment("tool", KDL::Joint(KDL::Joint::None), toKdl(m.tool)));
  return chain;
}

}  // namespace achain::peers
#endif
