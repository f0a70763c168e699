// Valve's repair request (prompt/render-repair) begins with these words, and the simulator
// (providers/sim) reads them to know it is being asked again. Both sides import them from here, below
// both, so the adapter never reaches into the prompt renderer.

/** The first words of Valve's repair request for a JSON answer that did not validate. */
export const repairHeading = 'Valve checked your previous answer';
