/**
 * Throw-away certificates for a test control plane, made with the openssl command line
 * (Node's crypto can make keys but not X.509 certificates). One CA signs the API server's
 * serving certificate and the client certificates; a separate key pair signs ServiceAccount
 * tokens. Everything is ECDSA P-256 and valid for one week, like controller-runtime's envtest.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** File paths of the material `createPki` wrote. */
export interface Pki {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  serviceAccountKey: string;
  serviceAccountPublicKey: string;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function newKey(dir: string, name: string): string {
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', name], dir);
  return join(dir, name);
}

/** Signs a certificate for `subject` with the CA; `extensions` is an openssl extension section body. */
function signedCert(dir: string, name: string, subject: string, extensions: string): { cert: string; key: string } {
  const key = newKey(dir, `${name}.key`);
  openssl(['req', '-new', '-key', key, '-subj', subject, '-out', `${name}.csr`], dir);
  execFileSync('sh', ['-c', `printf '%s\\n' "$EXT" > ${name}.ext`], { cwd: dir, env: { ...process.env, EXT: extensions } });
  openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '7',
      '-extfile', `${name}.ext`, '-out', `${name}.crt`],
    dir,
  );
  return { cert: join(dir, `${name}.crt`), key };
}

/** Extra names for a control plane that is reached by more than 127.0.0.1 (the real node's). */
export interface PkiOptions {
  /** More IP addresses the API server's serving certificate is valid for (node address, `kubernetes` Service IP). */
  servingIps?: readonly string[];
  /** More DNS names for it (`kubernetes.default.svc`, ...). */
  servingDnsNames?: readonly string[];
}

/**
 * Writes a CA, a serving certificate for 127.0.0.1/localhost (plus `options`), an admin client certificate and SA
 * keys into `dir`.
 */
export function createPki(dir: string, options: PkiOptions = {}): Pki {
  const caKey = newKey(dir, 'ca.key');
  openssl(['req', '-x509', '-new', '-key', caKey, '-subj', '/CN=promop-test-ca', '-days', '7', '-out', 'ca.crt',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  const serving = signedCert(dir, 'apiserver', '/CN=localhost',
    `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${subjectAltNames(options)}`);
  // Kubernetes maps a client certificate's CN to the user name and each O to a group;
  // system:masters is bound to cluster-admin and bypasses RBAC checks.
  const admin = signedCert(dir, 'admin', '/O=system:masters/CN=admin',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth');
  const serviceAccountKey = newKey(dir, 'sa.key');
  openssl(['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
  return {
    caCert: join(dir, 'ca.crt'),
    caKey,
    servingCert: serving.cert,
    servingKey: serving.key,
    adminCert: admin.cert,
    adminKey: admin.key,
    serviceAccountKey,
    serviceAccountPublicKey: join(dir, 'sa.pub'),
  };
}

function subjectAltNames(options: PkiOptions): string {
  const dns = ['localhost', ...(options.servingDnsNames ?? [])].map((name) => `DNS:${name}`);
  const ips = ['127.0.0.1', ...(options.servingIps ?? [])].map((ip) => `IP:${ip}`);
  return [...dns, ...ips].join(',');
}

/**
 * A client certificate signed by the CA of `dir` (made by createPki): Kubernetes reads the CN as the user and each
 * O as a group, e.g. `system:node:<name>` in `system:nodes` for a kubelet the Node authorizer recognises.
 */
export function createClientCert(dir: string, name: string, user: string, groups: readonly string[]): { cert: string; key: string } {
  const subject = [...groups.map((group) => `/O=${group}`), `/CN=${user}`].join('');
  return signedCert(dir, name, subject, 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth');
}
