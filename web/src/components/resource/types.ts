import type { z } from 'zod';
import type { ResourceDef } from '@wuye/contract/kit/resource';

/**
 * What the web reads of a resource description (contract kit `resource()`): any description
 * fits, and `Row` is inferred from it (the row type its list answers).
 */
export interface AnyResource<Row = unknown> {
  readonly def: ResourceDef;
  readonly formSchema: z.ZodType;
  readonly filterKeys: readonly string[];
  readonly row?: Row;
}
