/**
 * The entity core: an item family is declared once (its key, its model as a TypeBox schema, the
 * index keys derived from a value) and gets every read and write step from here. The schema is the
 * one declaration of what is stored: the value's type is `Static<schema>` and the fields written
 * and read back are the schema's properties, so no field list can drift from the type.
 * Repositories are these declarations plus what is particular to them; callers never see a key.
 *
 *   const coursingEntity = defineEntity({
 *     name: 'COURSING',
 *     schema: CoursingView,                                   // shared/schemas/coursings.ts
 *     key: (companyId: number, id: string) => ({ pk: keys.company(companyId), sk: `COURSING#${id}` }),
 *     keyOf: (companyId, c) => [companyId, c.id] as const,
 *     indexes: (companyId, c) => ({ gsi1pk: …, gsi1sk: … }),
 *   });
 *   await coursingEntity.get(companyId, id);                 // 1 GetItem
 *   await transact([coursingEntity.newItemStep(companyId, c), outboxStep(event)]);
 *
 * Why not dynamodb-toolbox or ElectroDB: see docs/entities.md.
 */
import { Type, type Static, type TObject, type TOptional, type TProperties } from '../schemas/typebox';
import { AppError, conflict } from '../errors';
import type { Page } from '../page';
import { getItem, getItems, type Item, type ItemKey, type ReadOptions, type ReadRequest } from './batch';
import { keys as keyParts, pick } from './keys';
import { listPage, type Collection, type PageRequest } from './paging';
import {
  atVersion,
  changedMeanwhile,
  conditionalPutStep,
  deleteStep,
  existsStep,
  putNewStep,
  type Step,
} from './transact';

export interface EntityDefinition<S extends TObject, A extends unknown[]> {
  /** The item's `entity` attribute: what the item is, for a reader of the table. */
  name: string;
  /**
   * What is stored, declared once: the value's type is `Static<schema>`, and the schema's
   * properties, in their order, are the fields written and read back. For a resource the API shows,
   * its view schema (shared/schemas), extended with `extendView(view, {…})` when the item keeps
   * bookkeeping the API does not show; for an internal item, a `Type.Object` of its own.
   */
  schema: S;
  /** The primary key from what callers know (a company and an id, usually). */
  key: (...args: A) => ItemKey;
  /** The key arguments of a stored value. */
  keyOf: (companyId: number, value: Static<S>) => Readonly<A>;
  /** Index keys and other attributes derived from the value, stored beside its fields (never read back). */
  indexes?: (companyId: number, value: Static<S>) => Item;
  /** How the resource is named in errors ("coursing", "booking group"). */
  label: string;
  /**
   * A platform-wide item that belongs to no company (the permission catalog): stored without a
   * `companyId` attribute; the company arguments of the entity's members are not used.
   */
  platformWide?: boolean;
}

export interface Entity<T, A extends unknown[]> {
  readonly name: string;
  /** The declaration of what is stored (see `EntityDefinition.schema`). */
  readonly schema: TObject;
  /** The schema's property names, in order: what `item` stores of a value and `from` reads back. */
  readonly fields: readonly string[];
  key(...args: A): ItemKey;
  /** The stored item of a value: keys, index keys, `entity`, `companyId` and the fields. */
  item(companyId: number, value: T): Item;
  /** The resource as the API shows it: exactly its fields, without keys and bookkeeping. */
  from(item: Item): T;
  /** The value, or undefined (also for another company's id): 1 GetItem. */
  get(...args: A): Promise<T | undefined>;
  /** Like `get`, read with options (a strongly consistent read). */
  getWith(options: ReadOptions, ...args: A): Promise<T | undefined>;
  /** The values that exist among those asked, in the order asked: one round trip. */
  getMany(argsList: readonly A[]): Promise<T[]>;
  /** A read of one value, to be sent with others in one round trip (`readTogether`). */
  read(...args: A): ReadRequest<T | undefined>;
  /** A read of several values (those that exist, in the order asked), for `readTogether`. */
  readMany(argsList: readonly A[]): ReadRequest<T[]>;
  /** Put-if-absent: the new value, or `onExists` (409 "… already exists" by default). */
  newItemStep(companyId: number, value: T, onExists?: () => AppError): Step;
  /** Replaces the value if it is still at `expectedVersion` (else 409 "changed by another request"). */
  versionedPutStep(companyId: number, value: T, expectedVersion: number): Step;
  /** Deletes the value if it is still at `expectedVersion`. */
  versionedDeleteStep(companyId: number, value: T & { version: number }): Step;
  /** Holds only while the item exists; `onMissing` otherwise (404 naming the resource by default). */
  existsStep(args: A, onMissing?: () => AppError): Step;
  /** One page of a collection of this entity (see paging.ts `listPage`). */
  list(collection: Collection, page: PageRequest): Promise<Page<T>>;
}

/**
 * Every entity defined, in the order their modules loaded: the unit test `entities.test.ts` stores
 * and reads back a value of each, with every field of its schema set.
 */
export const entityRegistry: Entity<unknown, unknown[]>[] = [];

/**
 * A stored item's schema: the view the API shows and the bookkeeping the item keeps beside it
 * (which the repository splits off before answering). One declaration: the view's properties, then
 * the extra ones.
 */
export const extendView = <V extends TProperties, E extends TProperties>(view: TObject<V>, extra: E) =>
  Type.Object({ ...view.properties, ...extra } as V & E);

/**
 * A view whose `optional` fields an older item may lack (the repository reads them as their
 * default): the same properties in the same order, those ones optional.
 */
export const withOptional = <V extends TProperties, K extends keyof V & string>(
  view: TObject<V>,
  optional: readonly K[],
) =>
  Type.Object(
    Object.fromEntries(
      Object.entries(view.properties).map(([k, p]) => [
        k,
        (optional as readonly string[]).includes(k) ? Type.Optional(p) : p,
      ]),
    ) as Omit<V, K> & { [P in K]: TOptional<V[P]> },
  );

export function defineEntity<S extends TObject, A extends unknown[]>(
  def: EntityDefinition<S, A>,
): Entity<Static<S>, A> {
  type T = Static<S>;
  const { schema } = def;
  const fields = Object.keys(schema.properties);
  const from = (item: Item): T => pick<T>(item, fields as (keyof T & string)[]);
  const keyOfValue = (companyId: number, value: T) => def.key(...def.keyOf(companyId, value));
  const declared = new Set(fields);
  const item = (companyId: number, value: T): Item => {
    // A property the schema lacks would be written and never read back: refuse it (a wider value
    // passed where the entity's type was expected; declare the property in the schema instead).
    const stray = Object.entries(value as object).filter(([k, v]) => !declared.has(k) && v !== undefined);
    if (stray.length > 0) throw new Error(`${def.name}: ${stray.map(([k]) => k).join(', ')} not in its schema`);
    return {
      ...keyOfValue(companyId, value),
      ...def.indexes?.(companyId, value),
      entity: def.name,
      ...(def.platformWide ? {} : { companyId }),
      ...value,
    };
  };
  const found = (k: ItemKey) => (f: { get(key: ItemKey): Item | undefined }) => {
    const hit = f.get(k);
    return hit ? from(hit) : undefined;
  };
  const readMany = (argsList: readonly A[]): ReadRequest<T[]> => {
    const keys = argsList.map((a) => def.key(...a));
    return {
      keys,
      answer: (f) =>
        keys.flatMap((k): T[] => {
          const hit = found(k)(f);
          return hit === undefined ? [] : [hit];
        }),
    };
  };
  const entity: Entity<T, A> = {
    name: def.name,
    schema,
    fields,
    key: def.key,
    item,
    from,
    get: (...args) => entity.getWith({}, ...args),
    async getWith(options, ...args) {
      const hit = await getItem(def.key(...args), options);
      return hit ? from(hit) : undefined;
    },
    async getMany(argsList) {
      const request = readMany(argsList);
      const items = await getItems(request.keys);
      const byKey = new Map(items.map((i) => [`${i.pk}\u0000${i.sk}`, i]));
      return request.answer({ get: (k) => byKey.get(`${k.pk}\u0000${k.sk}`) });
    },
    read: (...args) => {
      const k = def.key(...args);
      return { keys: [k], answer: found(k) };
    },
    readMany,
    newItemStep: (companyId, value, onExists) =>
      putNewStep(item(companyId, value), onExists ?? (() => conflict(`The ${def.label} already exists`))),
    versionedPutStep: (companyId, value, expectedVersion) =>
      conditionalPutStep(item(companyId, value), atVersion(expectedVersion), changedMeanwhile(def.label)),
    versionedDeleteStep: (companyId, value) =>
      deleteStep(keyOfValue(companyId, value), atVersion(value.version), changedMeanwhile(def.label)),
    existsStep: (args, onMissing) =>
      existsStep(
        def.key(...args),
        onMissing ?? (() => new AppError('NOT_FOUND', `${capitalized(def.label)} not found`)),
      ),
    list: (collection, page) => listPage(collection, page, from),
  };
  entityRegistry.push(entity as unknown as Entity<unknown, unknown[]>);
  return entity;
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The key of an item of the company: `C#<companyId>` / `<sk>` (most items live in their company's partition). */
export const companyKey = (companyId: number, sk: string): ItemKey => ({ pk: keyParts.company(companyId), sk });
