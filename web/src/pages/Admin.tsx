import { AdminGate } from '../features/admin/AdminDashboard';
import { usePageMeta } from '../hooks/usePageMeta';

/** `/admin`: the admin dashboard; anyone who is not an admin is sent to `/`. */
export default function AdminPage() {
  usePageMeta('Admin', 'Admin dashboard: product metrics, colleges, staff, student data and ingestion.');
  return (
    <section className="page">
      <AdminGate />
    </section>
  );
}
