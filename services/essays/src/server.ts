import { runServiceProcess } from '@ct/service-kit';
import service from './app.ts';

await runServiceProcess(service);
