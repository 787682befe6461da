/**
 * The exact solver re-seating uses (reseat.ts): HiGHS, an open-source MILP solver, compiled to
 * WebAssembly (the `highs` package, about 3.5 MB). Loaded only when a party does not fit as the
 * floor stands, and once per process: every other request, and every other function, pays
 * nothing for it (docs/optimizer.md, "Re-seating before refusing").
 *
 * On AWS the package is not in the handler bundles: it is a layer (infra/solver-layer.ts) that
 * Lambda mounts under /opt, and BRIGADE_SOLVER_MODULE names its module there. Elsewhere (the
 * local stage, tests, the bench) the package is imported from node_modules. Either way the
 * specifier is computed at run time, so esbuild leaves the import alone.
 */
import type { default as loadHighs, Highs } from 'highs';

/** A 0-1 program: minimise cost·x subject to lower ≤ Σ x[columns] ≤ upper for each row. */
interface BinaryProgram {
  columns: number;
  cost: readonly number[];
  rows: readonly { columns: readonly number[]; lower: number; upper: number }[];
  /** Branch-and-bound nodes at most (a bound independent of the machine's speed). */
  maxNodes: number;
  timeLimitSeconds: number;
}

/** A linear program: maximise gain·x subject to 0 ≤ x ≤ upper and Σ coefficient·x ≤ limit for each row. */
interface LinearProgram {
  gain: readonly number[];
  upper: readonly number[];
  rows: readonly { terms: readonly (readonly [column: number, coefficient: number])[]; limit: number }[];
}

/** An optimum of a linear program: the values, and each row's shadow price (what one more unit of its limit would gain, ≥ 0). */
interface LinearOptimum {
  values: Float64Array;
  prices: number[];
}

export interface Solver {
  /** The values of the best solution found within the bounds, or undefined when none is (infeasible, or the bounds were reached first). */
  solveBinary(program: BinaryProgram): Float64Array | undefined;
  /** The optimum of a linear program, or undefined when the solver finds none. */
  solveLinear(program: LinearProgram): LinearOptimum | undefined;
}

/** The module's specifier: the layer's on AWS, else the package. */
const SOLVER_MODULE = process.env.BRIGADE_SOLVER_MODULE || 'highs';

interface HighsModule {
  default: typeof loadHighs;
}
/** HiGHS's model status: optimal, or a limit reached (a solution may exist then). */
const OPTIMAL = 7;
const LIMIT_STATUSES = new Set([13, 14, 15, 16, 17]);

let loading: Promise<Solver> | undefined;

/**
 * The status a run ends in; undefined when HiGHS itself fails (the package throws its error status,
 * `{ status, operation: 'run' }`), which is no answer, as a limit reached without a solution is:
 * the caller refuses as it would over its bounds, never a 500.
 */
function statusOfRun(model: { run(): { modelStatus: number } }): number | undefined {
  try {
    return model.run().modelStatus;
  } catch (err) {
    if ((err as { operation?: unknown }).operation !== 'run') throw err;
    return undefined;
  }
}

/** Whether 0-1 values hold every row of the program: a solution is checked before it is used, never trusted. */
const holdsEveryRow = (p: BinaryProgram, values: Float64Array) =>
  values.length === p.columns &&
  p.rows.every((row) => {
    const sum = row.columns.reduce((n, c) => n + (values[c]! > 0.5 ? 1 : 0), 0);
    return sum >= row.lower && sum <= row.upper;
  });

/**
 * One run of a 0-1 program: its solution (optimal, or the best found when a limit was reached),
 * or why there is none: `limit` (a bound reached first), `infeasible` (as HiGHS says), `failed`
 * (the run threw), `wrong` (an answer that breaks a row).
 */
function binaryRun(
  model: {
    run(): { modelStatus: number };
    getSolution(): { colValue: Float64Array };
    info: { get(name: string): unknown };
  },
  p: BinaryProgram,
): Float64Array | 'limit' | 'infeasible' | 'failed' | 'wrong' {
  const status = statusOfRun(model);
  if (status === undefined) return 'failed';
  const solved =
    status === OPTIMAL || (LIMIT_STATUSES.has(status) && Number(model.info.get('primal_solution_status')) === 2);
  if (!solved) return LIMIT_STATUSES.has(status) ? 'limit' : 'infeasible';
  const values = model.getSolution().colValue;
  return holdsEveryRow(p, values) ? values : 'wrong';
}

function solverOf(highs: Highs): Solver {
  return {
    solveBinary(p) {
      const starts: number[] = [0];
      const index: number[] = [];
      const value: number[] = [];
      for (const row of p.rows) {
        for (const c of row.columns) {
          index.push(c);
          value.push(1);
        }
        starts.push(index.length);
      }
      const model = highs.createModel();
      try {
        model.options.set({
          output_flag: false,
          mip_max_nodes: p.maxNodes,
          time_limit: p.timeLimitSeconds,
        });
        model.passModel({
          numCols: p.columns,
          numRows: p.rows.length,
          colCost: p.cost,
          colLower: new Float64Array(p.columns),
          colUpper: new Float64Array(p.columns).fill(1),
          rowLower: p.rows.map((r) => r.lower),
          rowUpper: p.rows.map((r) => r.upper),
          matrix: { format: 'csr', numRows: p.rows.length, numCols: p.columns, starts, indices: index, values: value },
          integrality: new Int32Array(p.columns).fill(highs.constants.variableType.integer),
        });
        const first = binaryRun(model, p);
        if (typeof first !== 'string') return first;
        // HiGHS's presolve fails on some small programs (the run throws), and has called a feasible
        // one infeasible (bench §7's floors, pinned in test/unit/bookings-reseat.test.ts): without
        // it they solve. A limit reached is an answer: it is not run again.
        if (first === 'limit') return undefined;
        model.options.set({ presolve: 'off' });
        const second = binaryRun(model, p);
        return typeof second !== 'string' ? second : undefined;
      } finally {
        model.dispose();
      }
    },
    solveLinear(p) {
      const starts: number[] = [0];
      const index: number[] = [];
      const value: number[] = [];
      for (const row of p.rows) {
        for (const [c, coefficient] of row.terms) {
          index.push(c);
          value.push(coefficient);
        }
        starts.push(index.length);
      }
      const columns = p.gain.length;
      const model = highs.createModel();
      try {
        model.options.set({ output_flag: false });
        // HiGHS minimises: the gain is negated, and so are the row duals it answers (a limit that binds costs ≤ 0).
        model.passModel({
          numCols: columns,
          numRows: p.rows.length,
          colCost: p.gain.map((g) => -g),
          colLower: new Float64Array(columns),
          colUpper: p.upper,
          rowLower: p.rows.map(() => -highs.infinity),
          rowUpper: p.rows.map((r) => r.limit),
          matrix: { format: 'csr', numRows: p.rows.length, numCols: columns, starts, indices: index, values: value },
        });
        if (statusOfRun(model) !== OPTIMAL) return undefined;
        const solution = model.getSolution();
        return { values: solution.colValue, prices: Array.from(solution.rowDual, (d) => Math.max(0, -d)) };
      } finally {
        model.dispose();
      }
    },
  };
}

/** The process's solver, loaded on first use. */
export function loadSolver(): Promise<Solver> {
  loading ??= (import(SOLVER_MODULE) as Promise<HighsModule>)
    .then((m) => m.default())
    .then(solverOf)
    .catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
  return loading;
}
