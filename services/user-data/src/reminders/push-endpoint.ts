import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a reminder may be pushed (issue 50.1). A subscription's endpoint is a URL the browser's vendor
 * gives, and the reminder job POSTs to it from inside the cluster: an endpoint a client chose freely would
 * let anyone make the service call Redis, another service or the cloud's metadata address. So an endpoint
 * must be `https` on the host of a known Web Push service, checked when a device subscribes and again
 * before each send, and the address it resolves to must be a public one (a rule on the host name alone
 * would let a DNS answer point a known name inward). Redirects are never followed (see push.ts).
 *
 * Operators may add push services with `PUSH_SERVICE_HOSTS` (comma-separated): a host name admits that
 * host over https on port 443 (and its subdomains when written `*.host`); a full origin
 * (`http://127.0.0.1:4100`) admits exactly that origin, private address and plain http included. That is
 * how the tests' local push stand-in is admitted, and nothing else can be.
 */
export const KNOWN_PUSH_HOSTS = [
  // Chrome, Edge on Android, Opera, Samsung Internet (Firebase Cloud Messaging)
  'fcm.googleapis.com',
  // Firefox (Mozilla autopush)
  '*.push.services.mozilla.com',
  // Safari on macOS and iOS (Apple Push Notification service for the web)
  '*.push.apple.com',
  // Edge on Windows (Windows Push Notification Services)
  '*.notify.windows.com',
] as const;

export interface PushServiceRule {
  /** Host patterns admitted over https on 443: `host` or `*.host`. */
  hosts: readonly string[];
  /** Exact origins an operator admitted (scheme, host and port). */
  origins: ReadonlySet<string>;
}

/** The rule from `PUSH_SERVICE_HOSTS` over the known push services. */
export function pushServiceRule(setting: string | undefined): PushServiceRule {
  const hosts: string[] = [...KNOWN_PUSH_HOSTS];
  const origins = new Set<string>();
  for (const raw of (setting ?? '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry.includes('://')) origins.add(new URL(entry).origin);
    else hosts.push(entry);
  }
  return { hosts, origins };
}

function hostAdmitted(host: string, patterns: readonly string[]): boolean {
  return patterns.some((p) =>
    p.startsWith('*.') ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p,
  );
}

/** Why an endpoint is refused, in a sentence a student's browser can show; null when it is admitted. */
export function refusedEndpoint(endpoint: string, rule: PushServiceRule): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'This device gave a push address that is not a URL.';
  }
  if (url.username || url.password) return 'A push address must not carry a user name or password.';
  if (rule.origins.has(url.origin)) return null;
  if (url.protocol !== 'https:') return 'A push address must use https.';
  if (url.port && url.port !== '443') return 'A push address must use the standard https port.';
  const host = url.hostname.toLowerCase();
  if (isIP(host.replace(/^\[|\]$/g, '')))
    return 'A push address must name a push service, not an IP address.';
  if (!hostAdmitted(host, rule.hosts)) {
    return "This browser's push service is not one College Ready sends reminders through.";
  }
  return null;
}

/** Loopback, private, link-local, carrier-grade NAT, multicast and reserved ranges: never a push service. */
const INWARD = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  INWARD.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INWARD.addSubnet(net, bits, 'ipv6');
}

/** True for an address inside our network or this machine (checked after DNS resolution). */
export function isInwardAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INWARD.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = mappedIpv4(address);
  return mapped ? INWARD.check(mapped, 'ipv4') : INWARD.check(address, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`), else null. */
function mappedIpv4(address: string): string | null {
  const m = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(.+)$/i.exec(address);
  if (!m) return null;
  const rest = m[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup for the push client's connections that refuses inward addresses, so the address checked is
 * the address connected to (no window for a second DNS answer). Hosts of admitted origins skip the check.
 */
export function publicOnlyLookup(rule: PushServiceRule) {
  const admittedHosts = new Set([...rule.origins].map((o) => new URL(o).hostname));
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const bad = admittedHosts.has(hostname) ? undefined : list.find((a) => isInwardAddress(a.address));
      if (bad) {
        const refused: NodeJS.ErrnoException = new Error(
          `push host ${hostname} resolves to an inward address`,
        );
        refused.code = 'EPUSHINWARD';
        return callback(refused, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
