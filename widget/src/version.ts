/**
 * The widget's version (docs/widget.md, "Versions"). The script's path carries the major version
 * (GET /widget/v1.js): a change a page could notice (an attribute, a themeable property, a step
 * removed) is a new major version at a new path, served beside the old one.
 */
export const WIDGET_VERSION = '1.0.0';
