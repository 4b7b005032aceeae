#ifndef COMBATD_HTTP_ASSETS_H
#define COMBATD_HTTP_ASSETS_H

/* The page embedded at build time by cmake/embed.cmake (also NUL-terminated); the contract is
 * the api layer's (embedded.h). */
extern const unsigned char cbd_asset_index_html[];
extern const unsigned long cbd_asset_index_html_len;

#endif
