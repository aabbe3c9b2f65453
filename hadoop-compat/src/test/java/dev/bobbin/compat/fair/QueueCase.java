package dev.bobbin.compat.fair;

import java.util.List;

/**
 * One queue of a generated Fair tree, written as an allocation file writes it, so that Bobbin and
 * Hadoop each parse the same text.
 *
 * @param weight the weight element's text
 * @param minResources the minResources element's text, or null for none
 * @param maxResources the maxResources element's text, or null for none
 * @param policy fair, drf or fifo
 * @param apps how many runnable applications the queue holds (leaves only)
 */
record QueueCase(
    String name, String weight, String minResources, String maxResources, String policy, int apps,
    List<QueueCase> children) {
  QueueCase {
    children = List.copyOf(children);
  }

  boolean isLeaf() {
    return children.isEmpty();
  }

  /** The queue and what it holds as {@code <queue>} elements. */
  void appendXml(StringBuilder out, String indent) {
    out.append(indent).append("<queue name=\"").append(name).append("\"");
    if (isLeaf()) out.append(" type=\"leaf\"");
    else if (!name.equals("root")) out.append(" type=\"parent\"");
    out.append(">\n");
    String in = indent + "  ";
    if (!name.equals("root")) out.append(in).append("<weight>").append(weight).append("</weight>\n");
    if (minResources != null) out.append(in).append("<minResources>").append(minResources).append("</minResources>\n");
    if (maxResources != null) out.append(in).append("<maxResources>").append(maxResources).append("</maxResources>\n");
    out.append(in).append("<schedulingPolicy>").append(policy).append("</schedulingPolicy>\n");
    for (QueueCase c : children) c.appendXml(out, in);
    out.append(indent).append("</queue>\n");
  }
}
