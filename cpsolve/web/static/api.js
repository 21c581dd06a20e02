// The API page: the server's OpenAPI description (/openapi.json) drawn as a list of endpoints and their fields.
// Its descriptions are Markdown, as OpenAPI has them: the little they use is drawn here (paragraphs and `code`);
// a command-line option in plain text (--time-limit) is kept on one line.
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const escape = (text) =>
    String(text ?? "").replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);

  // One paragraph's Markdown as HTML: `code` and ``code`` as code, an option such as --format as code too,
  // everything else as text.
  const inline = (text) =>
    String(text ?? "")
      .split(/(``[^`]+``|`[^`]+`)/)
      .map((part, i) => {
        if (i % 2) return `<code>${escape(part.replace(/^`+|`+$/g, ""))}</code>`;
        return escape(part).replace(/(^|[\s(])(--[a-z][a-z0-9-]*)/g, "$1<code>$2</code>");
      })
      .join("");
  // Markdown paragraphs (split at blank lines) as <p> elements; a paragraph's line breaks are spaces.
  const markdown = (text) =>
    String(text ?? "")
      .split(/\n\s*\n/)
      .filter((paragraph) => paragraph.trim())
      .map((paragraph) => `<p>${inline(paragraph.replace(/\s*\n\s*/g, " ").trim())}</p>`)
      .join("");

  $("example").textContent =
    `curl -s ${location.origin}/api/hint -H 'Content-Type: application/json' \\\n` +
    `  -d '{"position": "3 3 1\\n1..\\n...\\n...\\n"}'`;
  let spec;
  try {
    const response = await fetch("/openapi.json");
    if (!response.ok) throw new Error(`status ${response.status}`);
    spec = await response.json();
  } catch (error) {
    $("problem").textContent = `The server's OpenAPI description (/openapi.json) cannot be read: ${error.message}.`;
    document.body.dataset.drawn = "1";
    return;
  }
  $("title").textContent = `${spec.info.title} ${spec.info.version}: the JSON API`;
  $("summary").innerHTML = inline(spec.info.summary || "");
  $("description").innerHTML = markdown(spec.info.description);

  const resolve = (schema) => {
    if (schema && schema.$ref) return spec.components.schemas[schema.$ref.split("/").pop()];
    return schema || {};
  };
  const typeOf = (schema) => {
    schema = resolve(schema);
    if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
    if (schema.type === "array") return `list of ${typeOf(schema.items)}`;
    return schema.title && !schema.type ? schema.title : schema.type || "object";
  };

  // a type's alternatives, each kept on one line: "integer | null" breaks only after a bar
  const typeHTML = (type) =>
    type
      .split(" | ")
      .map((part) => `<span class="nowrap">${escape(part)}</span>`)
      .join(" | ");

  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const block = document.createElement("div");
      block.className = "endpoint";
      let html =
        `<h3><span class="method ${method}">${method.toUpperCase()}</span>${escape(path)}</h3>` +
        `<strong>${inline(operation.summary)}</strong>${markdown(operation.description)}`;
      const body = operation.requestBody && resolve(operation.requestBody.content["application/json"].schema);
      if (body && body.properties) {
        const required = new Set(body.required || []);
        html +=
          '<table class="fields"><thead><tr><th>field</th><th>type</th><th>default</th><th>what</th></tr></thead><tbody>';
        for (const [name, field] of Object.entries(body.properties)) {
          const shown = required.has(name) ? "required" : JSON.stringify(field.default ?? null);
          html +=
            `<tr><td class="name"><code>${escape(name)}</code></td><td class="type">${typeHTML(typeOf(field))}</td>` +
            `<td class="default">${escape(shown)}</td><td class="what">${inline(field.description)}</td></tr>`;
        }
        html += "</tbody></table>";
      }
      const answers = Object.entries(operation.responses || {})
        .map(([code, response]) => `<li><code>${escape(code)}</code> ${inline(response.description)}</li>`)
        .join("");
      html += `<ul class="answers">${answers}</ul>`;
      block.innerHTML = html;
      $("endpoints").appendChild(block);
    }
  }
  document.body.dataset.drawn = "1"; // for the tests
})();
