#pragma once

// Ownership of exported arrays and schemas: each one's private_data is a heap object that owns
// what it points to, and its release callback deletes exactly that object.

#include <cstddef>
#include <vector>

namespace granary::arrow
{

/// The release callback of an ArrowArray, ArrowSchema or ArrowArrayStream whose private_data
/// is an `Owner` allocated with new.
template <typename Exported, typename Owner>
void releaseOwner(Exported* exported)
{
    delete static_cast<Owner*>(exported->private_data);
    exported->release = nullptr;
}

/// The children of an exported struct. Each child keeps its own private data, so a consumer may
/// move one out (copying it and marking this one released) and release it after the parent;
/// the parent releases only the children still here and unreleased.
template <typename Node>
class ExportedChildren
{
public:
    explicit ExportedChildren(size_t count) : nodes_(count), pointers_(count)
    {
        for (size_t i = 0; i < count; ++i)
        {
            pointers_[i] = &nodes_[i];
        }
    }
    ~ExportedChildren()
    {
        for (Node& node : nodes_)
        {
            if (node.release != nullptr)
            {
                node.release(&node);
            }
        }
    }
    ExportedChildren(const ExportedChildren&) = delete;
    ExportedChildren& operator=(const ExportedChildren&) = delete;

    Node& operator[](size_t index) { return nodes_[index]; }
    size_t size() const { return nodes_.size(); }
    /// The `children` array of the parent.
    Node** pointers() { return pointers_.data(); }

private:
    std::vector<Node> nodes_;  ///< Value-initialised: released until exported into.
    std::vector<Node*> pointers_;
};

}  // namespace granary::arrow
