import type { DataYears } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useId, useState, type ReactNode } from 'react';
import { LoadError } from '../../components/LoadError';
import {
  AdmissionStatisticsSection,
  DemographicBreakdownSection,
  DemographicsSection,
  FinanceSection,
  LinksSection,
  TipsSection,
} from '../colleges/sections';
import { useResourcesDemographics } from '../../api/student';

/** A dashboard panel whose body is collapsed until its button is pressed. */
function CollapsiblePanel({ title, noun, children }: { title: string; noun: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const headingId = useId();
  const bodyId = useId();
  return (
    <section className="card dashboard-panel collapsible-panel" aria-labelledby={headingId}>
      <div className="panel-head">
        <h2 id={headingId}>{title}</h2>
        <button
          type="button"
          className="secondary small"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? `Hide ${noun}` : `Show ${noun}`}
        </button>
      </div>
      <div id={bodyId} hidden={!open}>
        {open ? children : null}
      </div>
    </section>
  );
}

/** Where the panel's figures are from and which years they describe, in one line above them. */
function OfficialYears({ years }: { years: DataYears | undefined }) {
  const list = [...new Set(Object.values(years ?? {}).filter((y): y is string => !!y))].sort();
  return (
    <p className="muted small-print official-years">
      Official figures: College Scorecard, U.S. Department of Education,{' '}
      {list.length ? `${list.join(', ')} data` : 'year not stated'}.
    </p>
  );
}

/** Links, tips and admission statistics of the selected college. */
export function ResourcesPanel({ collegeName }: { collegeName: string | null }) {
  const q = useResourcesDemographics(collegeName);
  return (
    <CollapsiblePanel title="College Resources" noun="Resources">
      {!collegeName ? (
        <p className="muted">{MSG.selectCollegeResources}</p>
      ) : q.isPending ? (
        <p className="muted" role="status">
          {MSG.loadingResources}
        </p>
      ) : q.isError ? (
        <LoadError
          what="The resources could not be loaded."
          error={q.error}
          retrying={q.isFetching}
          onRetry={() => void q.refetch()}
        />
      ) : (
        <div className="panel-sections">
          <LinksSection links={q.data.resources.links} path="resources.links" />
          <TipsSection tips={q.data.resources.tips} path="resources.tips" />
          <AdmissionStatisticsSection
            stats={q.data.resources.admissionStatistics}
            path="resources.admissionStatistics"
            // The official rate leads, as on the college's card; the college's own figure follows with its
            // cycle and page when it differs.
            officialRate={q.data.demographics.admissionRate}
            officialScope={q.data.demographics.admissionRateScope}
            officialYear={q.data.demographics.dataYears?.admissions ?? null}
            sources={
              q.data.resources.admissionStatisticsSource
                ? { 'resources.admissionStatistics': q.data.resources.admissionStatisticsSource }
                : undefined
            }
          />
        </div>
      )}
    </CollapsiblePanel>
  );
}

/** City, state, sizes, rates, breakdown and finances of the selected college. */
export function DemographicsPanel({ collegeName }: { collegeName: string | null }) {
  const q = useResourcesDemographics(collegeName);
  return (
    <CollapsiblePanel title="College Demographics" noun="Demographics">
      {!collegeName ? (
        <p className="muted">{MSG.selectCollegeDemographics}</p>
      ) : q.isPending ? (
        <p className="muted" role="status">
          {MSG.loadingDemographics}
        </p>
      ) : q.isError ? (
        <LoadError
          what="The demographics could not be loaded."
          error={q.error}
          retrying={q.isFetching}
          onRetry={() => void q.refetch()}
        />
      ) : (
        <div className="panel-sections">
          <OfficialYears years={q.data.demographics.dataYears} />
          <DemographicsSection demographics={q.data.demographics} />
          <DemographicBreakdownSection breakdown={q.data.demographics.demographics} />
          <FinanceSection finance={q.data.demographics.finance} />
        </div>
      )}
    </CollapsiblePanel>
  );
}
