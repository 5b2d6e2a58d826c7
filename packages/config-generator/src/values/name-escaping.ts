/** The CRD's `nameEscapingScheme` values and the names Prometheus reads for them. */

/** The escaping schemes the CRD names (prometheus-operator's NameEscapingSchemeOptions). */
export const ESCAPING_SCHEMES: readonly string[] = ['AllowUTF8', 'Underscores', 'Dots', 'Values'];

/** The value Prometheus' `metric_name_escaping_scheme` takes for the CRD's `nameEscapingScheme` (`AllowUTF8` → `allow-utf-8`). */
export function escapingSchemeName(scheme: string): string {
  return scheme === 'AllowUTF8' ? 'allow-utf-8' : scheme.toLowerCase();
}
