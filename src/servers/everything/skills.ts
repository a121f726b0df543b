import { publishSkill, SkillCatalog } from "../../extensions/skills/index.js";

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  version: "1.0"
---

# PDF processing

Read \`references/FORMS.md\` before filling a form; pick a template from \`templates/\`.
`;

/**
 * The skills of the everything server (the skills extension, SEP-2640): one skill with a
 * reference, and templates in nested folders for directory reads.
 */
export function everythingSkills(): SkillCatalog {
  return new SkillCatalog([
    publishSkill({
      files: {
        "SKILL.md": SKILL_MD,
        "references/FORMS.md": "# Forms\n\nFill every field; sign last.\n",
        "templates/invoice.md": "# Invoice\n\nNumber, date, lines, total.\n",
        "templates/regional/eu-invoice.md": "# EU invoice\n\nAdd the VAT number.\n",
      },
    }),
  ]);
}
