// The account actions that need the Firebase SDK (re-authentication, name and password changes, a reset
// e-mail). Pages import this module when a student uses one, so a page's own chunk never carries the SDK:
// it arrives after the page has loaded (auth/session.tsx).
export {
  browserPopupRedirectResolver,
  EmailAuthProvider,
  GoogleAuthProvider,
  reauthenticateWithCredential,
  reauthenticateWithPopup,
  sendPasswordResetEmail,
  updatePassword,
  updateProfile,
} from 'firebase/auth';
export { firebaseAuth } from '../firebase';
