import type { Signature } from '../../domain/signatures/signature.js';

/** UCloud's OutSignature, with the fields Wirebird keeps besides. */
export function outSignature(s: Signature): Record<string, unknown> {
  return {
    SigId: s.sigId,
    SigContent: s.sigContent,
    Status: s.status,
    ErrDesc: s.errDesc,
    SigType: s.sigType,
    SigPurpose: s.sigPurpose,
    CertificateType: s.certificateType,
    International: s.international,
    CreateTime: Math.floor(s.createdAt / 1000),
  };
}
