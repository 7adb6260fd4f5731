import { MSG } from '@ct/contracts/messages';
import { describe, expect, it } from 'vitest';
import { authErrorMessage, CREDENTIALS_REFUSED, providerDetail, RESET_OFFER_CODES } from './errors';

/** What the Firebase SDK throws: a FirebaseError with `code` and a "Firebase: ... (auth/code)." message. */
function sdkError(code: string, detail = 'Error'): Error & { code: string } {
  return Object.assign(new Error(`Firebase: ${detail} (${code}).`), { code });
}

describe('provider error messages', () => {
  it('offers the reset link for both the emulator and the production wrong-password codes', () => {
    expect(RESET_OFFER_CODES.has('auth/wrong-password')).toBe(true);
    expect(RESET_OFFER_CODES.has('auth/invalid-credential')).toBe(true);
    expect(authErrorMessage(sdkError('auth/invalid-credential'))).toMatch(/email or password is incorrect/);
    expect(authErrorMessage(sdkError('auth/wrong-password'))).toMatch(/password is incorrect/);
  });

  it('never tells a wrong password from an unknown e-mail', () => {
    const codes = ['auth/wrong-password', 'auth/user-not-found', 'auth/invalid-credential'];
    for (const code of codes) {
      expect(authErrorMessage(sdkError(code)), code).toBe(CREDENTIALS_REFUSED);
      expect(RESET_OFFER_CODES.has(code), code).toBe(true);
    }
  });

  it('gives every code the spec lists a readable sentence, never the SDK wrapping', () => {
    const listed = [
      'email-already-in-use',
      'invalid-credential',
      'wrong-password',
      'user-not-found',
      'too-many-requests',
      'user-disabled',
      'user-token-expired',
      'expired-action-code',
      'invalid-action-code',
      'requires-recent-login',
      'unauthorized-continue-uri',
      'network-request-failed',
      'popup-blocked',
      'popup-closed-by-user',
      'cancelled-popup-request',
      'unauthorized-domain',
      'account-exists-with-different-credential',
      'credential-already-in-use',
      'multi-factor-auth-required',
    ];
    for (const code of listed) {
      const text = authErrorMessage(sdkError(`auth/${code}`));
      expect(text, code).not.toBe(MSG.loginGenericError);
      expect(text, code).not.toMatch(/Firebase|auth\//);
    }
  });

  it("lists the password policy's unmet requirements", () => {
    const err = sdkError(
      'auth/password-does-not-meet-requirements',
      'Missing password requirements: [Password must contain at least 8 characters, Password must contain a numeric character]',
    );
    expect(authErrorMessage(err)).toBe(
      'The password does not meet the requirements: Password must contain at least 8 characters, Password must contain a numeric character.',
    );
  });

  it("uses the provider's own text for an unlisted code, else the spec's generic message", () => {
    expect(authErrorMessage(sdkError('auth/quota-exceeded', 'Quota exceeded for this project'))).toBe(
      'Quota exceeded for this project',
    );
    expect(authErrorMessage(sdkError('auth/internal-error'))).toBe(MSG.loginGenericError);
    expect(authErrorMessage(new Error('boom'))).toBe(MSG.loginGenericError);
    expect(providerDetail(sdkError('auth/x'))).toBeNull();
  });
});
