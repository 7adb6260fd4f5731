import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the fake SMTP server accepted, parsed as a mail client would show it. */
export interface ReceivedMail {
  /** The envelope: who the server was asked to deliver to. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Each header as sent (lower-case name: its raw value). */
  headers: Record<string, string>;
}

export interface FakeSmtpServer {
  /** smtp://user:password@127.0.0.1:port, as an operator would set SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next message to this address is refused with a temporary failure (451), as a busy relay does. */
  refuseNextTo(address: string): void;
  close(): Promise<void>;
}

const USER = 'digest';
const PASSWORD = 'smtp-test-password';

/**
 * A local SMTP server standing in for an operator's mail relay: it speaks SMTP (EHLO, AUTH PLAIN/LOGIN,
 * MAIL, RCPT, DATA), accepts mail only after authentication with the credentials in its URL, and parses
 * what it accepts with mailparser, so the test reads what the recipient would.
 */
export async function startFakeSmtpServer(): Promise<FakeSmtpServer> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === USER && auth.password === PASSWORD) cb(null, { user: USER });
      else cb(new Error('Invalid username or password'));
    },
    onMailFrom(_address, session, cb) {
      if (session.user !== USER)
        cb(Object.assign(new Error('Authentication required'), { responseCode: 530 }));
      else cb();
    },
    onData(stream, session, cb) {
      const to = session.envelope.rcptTo.map((r) => r.address);
      const refused = to.find((a) => refuse.has(a));
      if (refused) {
        refuse.delete(refused);
        stream.resume();
        stream.on('end', () => cb(Object.assign(new Error('Try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push({
            to,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            headers: Object.fromEntries(
              mail.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]),
            ),
          });
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    received,
    refuseNextTo(address) {
      refuse.add(address);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
