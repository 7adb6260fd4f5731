import type { Finance } from '@ct/contracts';
import { NET_PRICE_BANDS } from '@ct/contracts/constants';
import { incomeBandText } from '@ct/contracts/planning';
import { formatMoney, NO_INFO } from '../../lib/format';
import { useStudentProfile } from '../money/api';
import { BarList, type Bar } from './BarList';

/**
 * Net price by family income, one bar per band, the student's own band (from their money profile)
 * highlighted and marked "You". A band the data lacks has no bar and says "No Info Found"; a negative net
 * price (grants above the cost) is a $0 bar, with the amount said under the chart. Nothing when the data
 * has no band at all.
 */
export default function NetPriceChart({ finance }: { finance: Finance | null | undefined }) {
  const profile = useStudentProfile();
  const mine = profile.data?.incomeBand ?? null;
  const values = NET_PRICE_BANDS.map((b) => {
    const v = finance?.[b.key];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  });
  if (values.every((v) => v === null)) return null;
  const top = Math.max(1, ...values.map((v) => v ?? 0));
  const notes: string[] = [];
  const bars: Bar[] = NET_PRICE_BANDS.map((b, i) => {
    const v = values[i]!;
    const band = incomeBandText(b.label);
    if (v !== null && v < 0) notes.push(`${band}: grants exceed the cost by ${formatMoney(-v)}.`);
    const yours = b.label === mine;
    return {
      key: b.key,
      label: (
        <>
          {band}
          {yours ? <span className="you-tag">You</span> : null}
        </>
      ),
      fraction: v === null ? null : Math.max(0, v) / top,
      text: v === null ? <span className="no-info">{NO_INFO}</span> : formatMoney(Math.max(0, v)),
      highlight: yours,
    };
  });
  return (
    <BarList
      caption="Net price by family income"
      bars={bars}
      note={
        notes.length || !mine ? (
          <>
            {notes.join(' ')}
            {!mine
              ? `${notes.length ? ' ' : ''}Add your household income on your Profile to see your band.`
              : null}
          </>
        ) : undefined
      }
    />
  );
}
