import type ExcelJS from 'exceljs';

/**
 * exceljs, loaded on the first .xlsx import or export rather than at start: loading it is about a quarter
 * of the server's start-up (≈ 0.2–0.3 s of CPU, docs/benchmarks.md R1), for calls most starts never see.
 */
export const loadExcel = async (): Promise<typeof ExcelJS> => (await import('exceljs')).default;
