/** The plans, from the billing service's public route (the one source of prices). */
export const fetchPlans = async (): Promise<unknown> => {
  const response = await fetch('/api/stripe/plans', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`The plans could not be read (HTTP ${response.status})`);
  return response.json();
};
