/** web/, the dashboard's sources. */
export declare const WEB_DIR: string;
/** Where the server looks for the built dashboard by default. */
export declare const DASHBOARD_DIR: string;
/** Whether Vite is installed (it is not in a production install). */
export declare function viteAvailable(): Promise<boolean>;
/** Builds the dashboard into `outDir` (default web/dist/) with Vite's JS API. */
export declare function buildDashboard(options?: { outDir?: string; quiet?: boolean }): Promise<string>;
