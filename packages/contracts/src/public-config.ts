/**
 * The only configuration the browser may see. Served by the gateway at `/api/public-config`
 * and read by the web client at start. Never put a secret here.
 */
export interface PublicConfig {
  productName: string;
  firebase: {
    apiKey: string;
    authDomain: string;
    projectId: string;
    /** Set only when the Auth emulator stands in for Google's servers. */
    emulatorUrl: string | null;
  };
  supportEmail: string;
  /** A second support address, shown in the FAQ. */
  faqEmail: string;
  donateUrl: string;
  builderUrl: string;
}
