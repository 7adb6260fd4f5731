import { useEffect } from 'react';
import { useConfig } from '../config';

function setMeta(attr: 'name' | 'property', key: string, content: string) {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = content;
}

/** Sets the page's title, description and share metadata (Open Graph and Twitter cards). */
export function usePageMeta(title: string, description: string): void {
  const { productName } = useConfig();
  useEffect(() => {
    const full = title ? `${title} | ${productName}` : productName;
    document.title = full;
    setMeta('name', 'description', description);
    setMeta('property', 'og:title', full);
    setMeta('property', 'og:description', description);
    setMeta('property', 'og:type', 'website');
    setMeta('property', 'og:site_name', productName);
    setMeta('property', 'og:url', window.location.href);
    setMeta('name', 'twitter:card', 'summary');
    setMeta('name', 'twitter:title', full);
    setMeta('name', 'twitter:description', description);
  }, [title, description, productName]);
}
