/** A tenant's spend reservation for one request: the most it may spend, settled to the actual cost. */
export interface Admission {
  budgetUsd: number;
  settle(actualUsd: number): Promise<void>;
}
