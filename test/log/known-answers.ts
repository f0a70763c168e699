// Known answers from outside this code base.

/** golang.org/x/mod/sumdb/note (note.go's package example and note_test.go). */
export const GO_SIGNER_KEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
export const GO_VERIFIER_KEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
export const GO_TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
export const GO_NOTE = `${GO_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;
/** Another Go test key, unknown to a verifier pinned on PeterNeumann. */
export const GO_ENOCH_KEY = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
/** transparency-dev/formats note tests: a verifier key whose base64 holds a "+". */
export const PLUS_VERIFIER_KEY = 'TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6';

/**
 * Valve's own formats, computed with node:crypto and a hand-written RFC 6962 tree: the log
 * "valve.example/log/0" keyed with the RFC 8032 TEST 1 seed, five entries whose payloads are
 * {"n":0} … {"n":4}, its checkpoint at size 5, and the tlog-proof of entry 3.
 */
export const LOG_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
export const LOG_ORIGIN = 'valve.example/log/0';
export const LOG_VERIFIER_KEY = 'valve.example/log/0+bdbf1ecf+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea';
export const LOG_ROOT_5 = '0bScQNt/PxMvD3CvWw8iRMZbGNejySl7UUfIClGytMk=';
export const LOG_CHECKPOINT_5 =
  'valve.example/log/0\n5\n0bScQNt/PxMvD3CvWw8iRMZbGNejySl7UUfIClGytMk=\n\n' +
  '\u2014 valve.example/log/0 vb8ezw/C1QJeopUxa/gvT4/bLV7wNwOWJynwGOYqf1EMkUhTdp9dxHLwkjkjnl0954jInmSTdC97+D1kc31iErLZSg8=\n';
export const LOG_PROOF_3 =
  'c2sp.org/tlog-proof@v1\nindex 3\n' +
  'IEKM/zPVCJmktPOjWvkkm9sajESuvz1ChYiju284qic=\n' +
  'Ekpklw0vhqAaMr1KaD7pHR0IpT9m3NTDn5x25F7vlnI=\n' +
  'tSNgK8hDfJPqnTlJT/m4KLKVvDz0Vi1eWOvUZPY73tM=\n\n' +
  LOG_CHECKPOINT_5;
