import Type from 'typebox';
import { Ok } from './common.ts';
import { defineRoute } from './route.ts';

/**
 * What the product's collection holds right now, for the About page's counters: the colleges a student can
 * find (the shared cache) and the majors it knows. Public: the About page is for everyone.
 */
export const getCollectionStats = defineRoute({
  method: 'GET',
  path: '/collection-stats',
  service: 'colleges',
  access: 'public',
  summary: 'How many colleges and majors the product holds (the About page counters)',
  schema: {
    response: {
      200: Ok({
        colleges: Type.Integer({ minimum: 0 }),
        majors: Type.Integer({ minimum: 0 }),
      }),
    },
  },
});

export const collectionRoutes = [getCollectionStats];
