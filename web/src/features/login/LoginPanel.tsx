import { MSG } from '@ct/contracts/messages';
import { TIMINGS } from '../../lib/timings';
import {
  createUserWithEmailAndPassword,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  updateProfile,
} from 'firebase/auth';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import {
  authErrorCode,
  authErrorMessage,
  RESET_OFFER_CODES,
  RESET_QUIET_CODES,
  RESET_SENT_IF_ACCOUNT,
} from '../../auth/errors';
import { HOME_SIGNED_IN, safeNext } from '../../auth/next';
import { LOGIN_TO_CONTINUE, SESSION_ENDED_NOTICE, VERIFICATION_RESENT } from '../../auth/notices';
import { useSession } from '../../auth/session';
import { useCooldown } from '../../auth/useCooldown';
import { useConfig } from '../../config';
import { firebaseAuth } from '../../firebase';
import { EmulatorGoogleAccount } from './EmulatorGoogleAccount';
import { FOCUS_HEADING } from '../../hooks/useArrivalFocus';
import { GoogleIcon } from './GoogleIcon';
import { signInWithGooglePopup } from './googleSignIn';
import './login.css';
import { StatusBanner } from '../../components/StatusBanner';

type Mode = 'login' | 'signup';

/**
 * The Login / Sign Up card: e-mail and password, Google, "Forgot password?" (the spec's Send Password Reset
 * Email after a refused login), and "Resend verification e-mail" after the unverified-login refusal. After
 * signing in the student goes back to the page that sent them here (`?next=`, this site's paths only), or
 * to Your Colleges. A session that ended elsewhere (password changed, account disabled) is explained here.
 */
export function LoginPanel() {
  const auth = firebaseAuth();
  const navigate = useNavigate();
  const config = useConfig();
  const { user, ended } = useSession();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'), window.location.origin);
  const destination = next ?? HOME_SIGNED_IN;
  const ids = useId();
  const emailInput = useRef<HTMLInputElement>(null);
  const [mode, setMode] = useState<Mode>('login');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [info, setInfo] = useState('');
  const [offerReset, setOfferReset] = useState(false);
  const [offerVerify, setOfferVerify] = useState(false);
  const [busy, setBusy] = useState(false);
  const resetLock = useCooldown(TIMINGS.passwordResetLockMs);
  const verifyLock = useCooldown(TIMINGS.passwordResetLockMs);
  const signup = mode === 'signup';
  // Until the student does anything here, say why they are on this page.
  const [acted, setActed] = useState(false);
  const notice = acted
    ? null
    : ended && ended !== 'signed-out'
      ? SESSION_ENDED_NOTICE[ended]
      : next
        ? LOGIN_TO_CONTINUE
        : null;

  const clearMessages = () => {
    setActed(true);
    setError('');
    setInfo('');
  };

  const toggleMode = () => {
    setMode(signup ? 'login' : 'signup');
    clearMessages();
    setOfferReset(false);
    setOfferVerify(false);
  };

  const logIn = async () => {
    setOfferVerify(false);
    try {
      const { user } = await signInWithEmailAndPassword(auth, email, password);
      if (!user.emailVerified) {
        await signOut(auth);
        setError(MSG.emailNotVerified);
        setOfferVerify(true);
        return;
      }
      navigate(destination, { replace: true, state: FOCUS_HEADING });
    } catch (err) {
      if (RESET_OFFER_CODES.has(authErrorCode(err))) setOfferReset(true);
      setError(authErrorMessage(err));
    }
  };

  const signUp = async () => {
    if (!name.trim()) {
      setError(MSG.enterName);
      return;
    }
    try {
      const { user } = await createUserWithEmailAndPassword(auth, email, password);
      try {
        await updateProfile(user, { displayName: name.trim() });
        await sendEmailVerification(user);
      } finally {
        // the account may only be used once its e-mail is verified
        await signOut(auth);
      }
      setMode('login');
      setPassword('');
      setInfo(MSG.signUpInfo);
    } catch (err) {
      setError(authErrorMessage(err));
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    clearMessages();
    setBusy(true);
    try {
      await (signup ? signUp() : logIn());
    } finally {
      setBusy(false);
    }
  };

  const sendReset = async () => {
    if (resetLock.locked) return;
    clearMessages();
    if (!email.trim()) {
      setError('Enter your email address above, then choose "Forgot password?" again.');
      emailInput.current?.focus();
      return;
    }
    resetLock.start();
    try {
      await sendPasswordResetEmail(auth, email.trim());
      setInfo(RESET_SENT_IF_ACCOUNT);
    } catch (err) {
      // "No such account" reads like a success: the page must not tell who has an account.
      if (RESET_QUIET_CODES.has(authErrorCode(err))) setInfo(RESET_SENT_IF_ACCOUNT);
      else setError(MSG.resetError(authErrorMessage(err)));
    }
  };

  /** Signs in once more (the password was right) only to send a new verification e-mail, then out again. */
  const resendVerification = async () => {
    if (verifyLock.locked || busy) return;
    clearMessages();
    verifyLock.start();
    setBusy(true);
    try {
      const { user } = await signInWithEmailAndPassword(auth, email, password);
      try {
        if (!user.emailVerified) await sendEmailVerification(user);
      } finally {
        await signOut(auth);
      }
      setInfo(VERIFICATION_RESENT(email.trim()));
    } catch (err) {
      setError(authErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const google = async () => {
    clearMessages();
    setBusy(true);
    try {
      await signInWithGooglePopup(auth);
      navigate(destination, { replace: true, state: FOCUS_HEADING });
    } catch {
      setError(MSG.googleSignInError);
    } finally {
      setBusy(false);
    }
  };

  // Already signed in (or just signed in with a provider): straight on.
  if (user) return <Navigate to={destination} replace state={FOCUS_HEADING} />;

  return (
    <div className="card login-card">
      <h1>{signup ? 'Sign Up' : 'Login'}</h1>
      {notice ? <StatusBanner kind="info">{notice}</StatusBanner> : null}
      <div aria-live="polite">
        {error ? <StatusBanner kind="error">{error}</StatusBanner> : null}
        {info ? <StatusBanner kind="info">{info}</StatusBanner> : null}
      </div>
      <form onSubmit={onSubmit} aria-label={signup ? 'Sign Up' : 'Login'}>
        {signup ? (
          <div className="field">
            <label htmlFor={`${ids}-name`}>Name</label>
            <input
              id={`${ids}-name`}
              name="name"
              type="text"
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${ids}-email`}>Email</label>
          <input
            ref={emailInput}
            id={`${ids}-email`}
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-password`}>Password</label>
          <input
            id={`${ids}-password`}
            name="password"
            type="password"
            autoComplete={signup ? 'new-password' : 'current-password'}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <button type="submit" className="login-submit" disabled={busy} aria-busy={busy}>
          {signup ? 'Sign Up' : 'Login'}
        </button>
      </form>
      {signup ? null : (
        <p className="login-reset">
          <button type="button" className="link" disabled={resetLock.locked} onClick={sendReset}>
            {resetLock.locked
              ? MSG.pleaseWait
              : offerReset
                ? 'Send Password Reset Email'
                : 'Forgot password?'}
          </button>
        </p>
      )}
      {offerVerify && !signup ? (
        <p className="login-reset">
          <button
            type="button"
            className="link"
            disabled={verifyLock.locked || busy}
            onClick={() => void resendVerification()}
          >
            {verifyLock.locked ? MSG.pleaseWait : 'Resend verification e-mail'}
          </button>
        </p>
      ) : null}
      <div className="login-alt">
        <span className="muted">or</span>
        <button
          type="button"
          className="google-button"
          aria-label="Sign in with Google"
          title="Sign in with Google"
          disabled={busy}
          onClick={google}
        >
          <GoogleIcon />
        </button>
      </div>
      <p className="login-toggle">
        <span className="muted">{signup ? 'Already have an account?' : 'New here?'}</span>{' '}
        <button type="button" className="link" onClick={toggleMode}>
          {signup ? 'Back to log in' : 'Create an account'}
        </button>
      </p>
      {config.firebase.emulatorUrl ? (
        <EmulatorGoogleAccount
          onDone={() => navigate(destination, { replace: true, state: FOCUS_HEADING })}
          onError={(m) => {
            setInfo('');
            setError(m);
          }}
        />
      ) : null}
    </div>
  );
}
