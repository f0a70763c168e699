import type { RECEIPT_FIELDS_V1 } from '../../src/contracts/receipt-field-names';

// Known answers computed outside this code base, so a refactor that changes one byte fails the tests:
// the commitments with Python's hmac/hashlib (HKDF written out from RFC 5869) following receipts.md,
// the JWS with node:crypto over a hand-written JCS payload and header.

export const SALT = 'valve-test-salt_0123456789abcdefghijklmnopqrstuvwxyz';
export const RID = '0190d5a8-7b3c-7def-8123-456789abcdef';
export const VALUES = { 'req.task': 'summarize', 'req.context': [{ b: 1, a: 'é' }] };

export const EXPECTED_CMT: Record<(typeof RECEIPT_FIELDS_V1)[number], string> = {
  'req.task': 'YPRfMFLRM2XdbZMWU5C7cUbtIDYOYRX7KYAj_ObcmIs',
  'req.instructions': 'b5dEGhi-8UT0fqMOpCoNCJjeSaKQF-6AMMIaSE2ADbI',
  'req.context': '_5xF-8H66aTff3Xv44pCz0N-USNh14kYbCbHt8kgs6E',
  'req.conversation': 'jh5a3gb7SWdYwTJ4mTg_lSHLW1n4CvCZWmfM3C4Y1Xo',
  'req.tools': '6LSat4OnwKsdn-Hbp8AboGkGZWU_SOSx9463sB1mJ2k',
  'req.output': '88kfNidpRDOviq4em2eWGEkBgLTZBL-2S3jmm-Ghrmo',
  'req.modelPolicy': 'rYNjo2VdJrZ4TEeAJOKM6IVD9b12MA1wQzZCQ_cWBDc',
  'res.output': 'ssj-zuiTY-c1ub5NgtLM_nYU7qVJ0Ctl3xTvEpd_LLg',
  'res.toolCalls': 'rccVV5nabE-63oFC7PoDCIsyk5f8ukDXSzrahB3GFCg',
  'res.meta': 'MKxZET6K8N2shKhbv28bz-PjwRQd7BHQ7bQHvr5KWYo',
  'dec.model': 'QcQVv875P-Jhbpf8S-mWmqqO6YsNh4U_yT5OolLAyvE',
  'dec.trace': 'OwQWc4a-HvN3LsfOhF0T1DKzmfiYAH777zjoGb47N7w',
};

/** RFC 8032 section 7.1 TEST 1: seed, public key, and the signature of the empty message. */
export const RFC8032_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
export const RFC8032_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
export const RFC8032_SIG =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
/** RFC 8037 appendix A.3: the RFC 7638 thumbprint of the TEST 1 public key. */
export const RFC8032_KID = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';

export const KAT_ISS = 'https://valve.example';
export const KAT_IAT = 1767225600123;
/** The receipt for RID with EXPECTED_CMT, KAT_ISS and KAT_IAT, signed with the RFC 8032 TEST 1 key. */
export const KAT_JWS =
  'eyJhbGciOiJFZDI1NTE5Iiwia2lkIjoia1ByS19xbXhWV2FZVkE5d3dCRjZJdW8zdlZ6ejdUeEhDVHdYQnlnclM0ayIsInR5cCI6InZhbHZlLXJlY2VpcHQrandzIn0.' +
  'eyJjbXQiOnsiZGVjLm1vZGVsIjoiUWNRVnY4NzVQLUpoYnBmOFMtbVdtcXFPNllzTmg0VV95VDVPb2xMQXl2RSIsImRlYy50cmFjZSI6Ik93UVdjNGEtSHZOM0xzZk9oRjBUMURLem1maVlBSDc3N3pqb0diNDdON3ciLCJyZXEuY29udGV4dCI6Il81eEYtOEg2NmFUZmYzWHY0NHBDejBOLVVTTmgxNGtZYkNiSHQ4a2dzNkUiLCJyZXEuY29udmVyc2F0aW9uIjoiamg1YTNnYjdTV2RZd1RKNG1UZ19sU0hMVzFuNEN2Q1pXbWZNM0M0WTFYbyIsInJlcS5pbnN0cnVjdGlvbnMiOiJiNWRFR2hpLThVVDBmcU1PcENvTkNKamVTYUtRRi02QU1NSWFTRTJBRGJJIiwicmVxLm1vZGVsUG9saWN5IjoicllOam8yVmRKclo0VEVlQUpPS002SVZEOWIxMk1BMXdRelpDUV9jV0JEYyIsInJlcS5vdXRwdXQiOiI4OGtmTmlkcFJET3ZpcTRlbTJlV0dFa0JnTFRaQkwtMlMzam1tLUdocm1vIiwicmVxLnRhc2siOiJZUFJmTUZMUk0yWGRiWk1XVTVDN2NVYnRJRFlPWVJYN0tZQWpfT2JjbUlzIiwicmVxLnRvb2xzIjoiNkxTYXQ0T253S3Nkbi1IYnA4QWJvR2tHWldVX1NPU3g5NDYzc0IxbUoyayIsInJlcy5tZXRhIjoiTUt4WkVUNks4TjJzaEtoYnYyOGJ6LVBqd1JRZDdCSFE3YlFIdnI1S1dZbyIsInJlcy5vdXRwdXQiOiJzc2otenVpVFktYzF1YjVOZ3RMTV9uWVU3cVZKMEN0bDN4VHZFcGRfTExnIiwicmVzLnRvb2xDYWxscyI6InJjY1ZWNW5hYkUtNjNvRkM3UG9EQ0lzeWs1Zjh1a0RYU3pyYWhCM0dGQ2cifSwiaWF0IjoxNzY3MjI1NjAwMTIzLCJpc3MiOiJodHRwczovL3ZhbHZlLmV4YW1wbGUiLCJyaWQiOiIwMTkwZDVhOC03YjNjLTdkZWYtODEyMy00NTY3ODlhYmNkZWYiLCJ0eXAiOiJ2YWx2ZS1yZWNlaXB0L3YxIn0.' +
  'ro8WlYhJPunfwpJ2yTYaIp-7rTzuKf8YRIDETa_k3GK1ZRiUUnFQyC8RghVWiCX1xao7GL7s-i-RddFgFzgWDg';
